import { clock, listenedLabel, percent, readLabel } from './format';

describe('progress words', () => {
  it('reads as a whole percentage', () => {
    expect(percent(0.372)).toBe('37%');
    expect(readLabel(0.372)).toBe('Read 37%');
    expect(readLabel(1.2)).toBe('Read 100%');
  });
  it('listens in hours and minutes', () => {
    expect(listenedLabel(72 * 60 + 30)).toBe('Listened 1 h 12 min');
    expect(listenedLabel(4 * 60)).toBe('Listened 4 min');
    expect(listenedLabel(2 * 3600)).toBe('Listened 2 h');
    expect(listenedLabel(20)).toBe('Listened under a minute');
  });
  it('shows player times', () => {
    expect(clock(7)).toBe('0:07');
    expect(clock(725)).toBe('12:05');
    expect(clock(3729)).toBe('1:02:09');
  });
});
