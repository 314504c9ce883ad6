import type { FastifyRequest } from 'fastify';
import { printableLine } from '@shared/schemas/common';
import { AppError, badRequest } from '../http/errors';

export const UPLOAD_MESSAGES = {
  unreadable: 'The upload could not be read. Please try again.',
  oneFile: 'Send one file at a time.',
  tooManyParts: 'The upload has more parts than the file: send the file alone.',
  wrongField: (field: string) => `Send the file in the form field "${field}".`,
} as const;

/** The longest file name kept (for the audit log and the page that shows it). */
export const MAX_UPLOAD_NAME = 200;

export interface UploadedFile {
  /** The name the client gave, cleaned: no control characters or broken Unicode, at most MAX_UPLOAD_NAME. */
  fileName: string;
  data: Buffer;
}

export interface ReadFileOptions {
  /** The multipart field the file must come in. */
  field: string;
  /** The refusal when the upload carries no file. */
  missing: () => AppError;
  /** The refusal when the file is larger than the plugin's fileSize limit. */
  tooLarge: () => AppError;
}

/**
 * What the multipart parser refuses is the client's fault: a body cut short, no boundary, broken headers, too
 * many parts. Each is a 4xx with words, never a 500.
 */
function uploadFailure(error: unknown, options: ReadFileOptions): AppError {
  if (error instanceof AppError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return options.tooLarge();
    case 'FST_FILES_LIMIT':
      return badRequest(UPLOAD_MESSAGES.oneFile, { [options.field]: UPLOAD_MESSAGES.oneFile });
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return badRequest(UPLOAD_MESSAGES.tooManyParts);
    default:
      return badRequest(UPLOAD_MESSAGES.unreadable);
  }
}

/**
 * The one file of a multipart upload, read whole into memory (for files the route must hold anyway). Plain
 * fields beside it are ignored; a file in another field, or a second file, is refused. The caller has
 * checked `request.isMultipart()` and registered the multipart plugin with its limits.
 */
export async function readOneFile(request: FastifyRequest, options: ReadFileOptions): Promise<UploadedFile> {
  let found: UploadedFile | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== options.field) {
        const message = UPLOAD_MESSAGES.wrongField(options.field);
        throw badRequest(message, { [options.field]: message });
      }
      if (found) throw badRequest(UPLOAD_MESSAGES.oneFile, { [options.field]: UPLOAD_MESSAGES.oneFile });
      const data = await part.toBuffer();
      // A part without a filename (a field sent as application/octet-stream) is still the file.
      found = { fileName: printableLine(part.filename ?? '', MAX_UPLOAD_NAME), data };
    }
  } catch (error) {
    throw uploadFailure(error, options);
  }
  if (!found) throw options.missing();
  return found;
}
