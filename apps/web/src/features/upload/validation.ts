import { MESSAGES } from '@studioshot/contracts/messages';
import { ACCEPTED_PHOTO_TYPES, MAX_PHOTO_BYTES, MAX_PHOTOS, MIN_PHOTOS } from './constants';

/** A file the page will not take, and why (product spec, section 5: Upload). */
export interface RejectedFile {
  name: string;
  error: string;
}

export interface SelectionResult {
  accepted: File[];
  rejected: RejectedFile[];
}

const TYPE_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jfif: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/** The MIME type, or one inferred from the extension when the browser reports none. */
export function photoType(file: Pick<File, 'name' | 'type'>): string {
  if (file.type) return file.type.toLowerCase();
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  return TYPE_BY_EXTENSION[extension] ?? '';
}

/** Why one file cannot be uploaded, or null when it can. */
export function fileError(file: Pick<File, 'name' | 'type' | 'size'>): string | null {
  const type = photoType(file);
  if (!type.startsWith('image/')) return MESSAGES.onlyImages;
  if (!(ACCEPTED_PHOTO_TYPES as readonly string[]).includes(type)) return MESSAGES.invalidFileType;
  if (file.size > MAX_PHOTO_BYTES) return MESSAGES.fileTooLarge;
  return null;
}

/** Identifies a picked file well enough to notice the same one picked twice. */
export function fileIdentity(file: Pick<File, 'name' | 'size' | 'lastModified'>): string {
  return `${file.name}\u0000${file.size}\u0000${file.lastModified}`;
}

/**
 * Sorts a new pick into files to keep and files to refuse: non-images, other types, files over
 * 50MB, files already picked, and whatever would take the set past 20 photos.
 */
export function validateSelection(
  files: readonly File[],
  context: { alreadyChosen: number; knownIdentities?: ReadonlySet<string> },
): SelectionResult {
  const accepted: File[] = [];
  const rejected: RejectedFile[] = [];
  const seen = new Set(context.knownIdentities ?? []);
  let room = Math.max(0, MAX_PHOTOS - context.alreadyChosen);
  for (const file of files) {
    const error = fileError(file);
    if (error) {
      rejected.push({ name: file.name, error });
      continue;
    }
    const identity = fileIdentity(file);
    if (seen.has(identity)) {
      rejected.push({ name: file.name, error: MESSAGES.duplicatePhoto });
      continue;
    }
    if (room === 0) {
      rejected.push({ name: file.name, error: MESSAGES.tooManyPhotos });
      continue;
    }
    seen.add(identity);
    accepted.push(file);
    room -= 1;
  }
  return { accepted, rejected };
}

/** The messages to show for a pick's refusals: each distinct reason once, most useful first. */
export function summariseRejections(rejected: readonly RejectedFile[]): string[] {
  const order = [
    MESSAGES.tooManyPhotos,
    MESSAGES.onlyImages,
    MESSAGES.invalidFileType,
    MESSAGES.fileTooLarge,
    MESSAGES.duplicatePhoto,
  ] as string[];
  const distinct = [...new Set(rejected.map((r) => r.error))];
  return distinct.sort((a, b) => rank(order, a) - rank(order, b));
}

function rank(order: string[], message: string): number {
  const index = order.indexOf(message);
  return index === -1 ? order.length : index;
}

/**
 * Why an upload cannot start now, or null: one upload at a time, a token, files to send, and a
 * set of 10 to 20 photos counting the ones already uploaded.
 */
export function startUploadError(input: {
  running: boolean;
  hasToken: boolean;
  pending: number;
  uploaded: number;
}): string | null {
  if (input.running) return MESSAGES.uploadInProgress;
  if (!input.hasToken) return MESSAGES.authRequired;
  if (input.pending === 0) return NO_FILES_MESSAGE;
  const total = input.pending + input.uploaded;
  if (total < MIN_PHOTOS) return MESSAGES.minPhotos;
  if (total > MAX_PHOTOS) return MESSAGES.tooManyPhotos;
  return null;
}

export const NO_FILES_MESSAGE = 'Choose photos to upload first.';
