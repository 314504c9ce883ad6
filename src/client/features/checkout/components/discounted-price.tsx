/** A price with its discount: the list price struck through, then the price to pay (issue 15). */
export function DiscountedPrice({
  displayPrice,
  displayOriginalPrice,
  className,
}: {
  displayPrice: string;
  displayOriginalPrice?: string | null;
  className?: string;
}) {
  if (!displayOriginalPrice || displayOriginalPrice === displayPrice) return <span className={className}>{displayPrice}</span>;
  return (
    <span className={className}>
      <s className="mr-2 font-normal text-bone-400" data-testid="original-price">
        <span className="sr-only">Was </span>
        {displayOriginalPrice}
      </s>
      <span data-testid="price-to-pay">
        <span className="sr-only">now </span>
        {displayPrice}
      </span>
    </span>
  );
}
