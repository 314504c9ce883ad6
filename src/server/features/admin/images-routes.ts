import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { IMAGE_PATH_PREFIX, IMAGE_UPLOAD_LIMIT, imageNameParams, uploadedImageSchema } from '@shared/schemas/admin';
import { errorSchema } from '@shared/schemas/common';
import { sha256 } from '../../platform/security/crypto';
import { AppError, badRequest, notFound } from '../../platform/http/errors';
import { actorOf, audit } from '../../platform/operations/audit';
import { readOneFile } from '../../platform/storage/uploads';

/** Where uploaded images live in the file store (served from IMAGE_PATH_PREFIX). */
const KEY_PREFIX = 'images/';

const TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
} as const;
type Extension = keyof typeof TYPES;

/** The image type by its first bytes (never by the name or the type the browser claims). */
export function detectImage(head: Buffer): Extension | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (head.length >= 16 && head.toString('latin1', 4, 8) === 'ftyp') {
    // ISO-BMFF: the major brand, then compatible brands up to the end of the ftyp box.
    const boxEnd = Math.min(head.readUInt32BE(0), head.length);
    for (let at = 8; at + 4 <= boxEnd; at += 4) {
      if (at === 12) continue; // minor version
      const brand = head.toString('latin1', at, at + 4);
      if (brand === 'avif' || brand === 'avis') return 'avif';
    }
  }
  return null;
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * POST /api/admin/images: an admin uploads a cover image (multipart field "file"). The bytes decide the
 * type; the name is random, so a stored image never changes and can be cached for a year. Registered
 * inside the admin routes (admin check, audit, cache clearing).
 */
export const adminImagesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { clock, files, random } = app.deps;
  await app.register(multipart, { limits: { fileSize: IMAGE_UPLOAD_LIMIT, files: 1, fields: 2, parts: 3 } });

  app.post(
    '/api/admin/images',
    {
      schema: {
        tags: ['admin'],
        summary: 'Upload an image (PNG, JPEG, WebP or AVIF, multipart field "file"); answers its public URL',
        consumes: ['multipart/form-data'],
        response: { 201: uploadedImageSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 413: errorSchema, 415: errorSchema },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 415, 'Send the image as multipart/form-data');
      const { data } = await readOneFile(request, {
        field: 'file',
        missing: () => badRequest('Choose an image to upload', { file: 'Choose an image to upload' }),
        tooLarge: () => new AppError('FILE_TOO_LARGE', 413, `The image is too large. The limit is ${megabytes(IMAGE_UPLOAD_LIMIT)}.`),
      });
      if (data.length === 0) throw badRequest('The image is empty', { file: 'The image is empty' });
      const extension = detectImage(data.subarray(0, 64));
      if (!extension) throw new AppError('UNSUPPORTED_FILE_TYPE', 415, 'The image must be a PNG, JPEG, WebP or AVIF file.');

      // 128 random bits as hex: unguessable, and never reused, so the public copy can be cached for good.
      const name = `${sha256(random.token(16)).slice(0, 32)}.${extension}`;
      await files.put(`${KEY_PREFIX}${name}`, data, TYPES[extension]);
      await audit(app.deps.database.db, actorOf(request), { action: 'image.upload', targetType: 'image', targetId: name, details: { bytes: data.length } }, clock.now());
      return reply.status(201).send({ url: `${IMAGE_PATH_PREFIX}${name}`, contentType: TYPES[extension], bytes: data.length });
    },
  );
};

/** GET /media/images/{name}: uploaded images for everyone, with a year of caching (names never change). */
export const publicImageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { files } = app.deps;
  app.get(
    `${IMAGE_PATH_PREFIX}:name`,
    { schema: { hide: true, params: imageNameParams } },
    async (request, reply) => {
      const { name } = request.params;
      const key = `${KEY_PREFIX}${name}`;
      const stat = await files.stat(key);
      if (!stat) throw notFound('Image not found');
      const extension = name.slice(name.lastIndexOf('.') + 1) as Extension;
      return reply
        .header('Content-Type', TYPES[extension])
        .header('Content-Length', String(stat.size))
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('X-Content-Type-Options', 'nosniff')
        .send(await files.read(key));
    },
  );
};
