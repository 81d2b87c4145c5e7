import { MESSAGES } from '@studioshot/contracts/messages';
import { describe, expect, it } from 'vitest';
import {
  fileError,
  fileIdentity,
  photoType,
  startUploadError,
  summariseRejections,
  validateSelection,
} from './validation';

const MB = 1024 * 1024;

function file(name: string, type: string, size = 1000, lastModified = 1): File {
  const f = new File(['x'], name, { type, lastModified });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

describe('upload validation', () => {
  it('takes JPEG, PNG and WebP up to 50MB, with the spec messages for the rest', () => {
    expect(fileError(file('a.jpg', 'image/jpeg'))).toBeNull();
    expect(fileError(file('a.png', 'image/png'))).toBeNull();
    expect(fileError(file('a.webp', 'image/webp', 50 * MB))).toBeNull();
    expect(fileError(file('a.pdf', 'application/pdf'))).toBe('Please only upload image files');
    expect(fileError(file('a.gif', 'image/gif'))).toBe(
      'Invalid file type. Only JPEG, PNG, and WebP are allowed.',
    );
    expect(fileError(file('a.heic', 'image/heic'))).toBe(MESSAGES.invalidFileType);
    expect(fileError(file('a.jpg', 'image/jpeg', 50 * MB + 1))).toBe('File too large (max 50MB)');
  });

  it('infers the type from the extension when the browser reports none', () => {
    expect(photoType({ name: 'IMG_1.JPG', type: '' })).toBe('image/jpeg');
    expect(photoType({ name: 'a.webp', type: '' })).toBe('image/webp');
    expect(photoType({ name: 'notes', type: '' })).toBe('');
    expect(fileError(file('notes.txt', ''))).toBe(MESSAGES.onlyImages);
    expect(fileError(file('me.png', ''))).toBeNull();
  });

  it('keeps the set at 20 photos and refuses files picked twice', () => {
    const picks = Array.from({ length: 5 }, (_, i) => file(`p${i}.jpg`, 'image/jpeg', 1000, i));
    const result = validateSelection([...picks, file('bad.txt', 'text/plain')], {
      alreadyChosen: 17,
      knownIdentities: new Set([fileIdentity(picks[0]!)]),
    });
    expect(result.accepted.map((f) => f.name)).toEqual(['p1.jpg', 'p2.jpg', 'p3.jpg']);
    expect(result.rejected).toEqual([
      { name: 'p0.jpg', error: MESSAGES.duplicatePhoto },
      { name: 'p4.jpg', error: 'Maximum 20 photos allowed' },
      { name: 'bad.txt', error: 'Please only upload image files' },
    ]);
    expect(summariseRejections(result.rejected)).toEqual([
      'Maximum 20 photos allowed',
      'Please only upload image files',
      MESSAGES.duplicatePhoto,
    ]);
  });

  it('refuses the same file twice within one pick', () => {
    const a = file('a.jpg', 'image/jpeg', 10, 5);
    const again = file('a.jpg', 'image/jpeg', 10, 5);
    expect(validateSelection([a, again], { alreadyChosen: 0 }).accepted).toHaveLength(1);
  });

  it('starts an upload only for 10-20 photos, one at a time, with a token', () => {
    const ok = { running: false, hasToken: true, pending: 10, uploaded: 0 };
    expect(startUploadError(ok)).toBeNull();
    expect(startUploadError({ ...ok, running: true })).toBe('Upload already in progress');
    expect(startUploadError({ ...ok, hasToken: false })).toBe('Authentication required');
    expect(startUploadError({ ...ok, pending: 9 })).toBe('Minimum 10 photos required for training');
    // Photos already uploaded count toward the minimum.
    expect(startUploadError({ ...ok, pending: 2, uploaded: 8 })).toBeNull();
    expect(startUploadError({ ...ok, pending: 3, uploaded: 18 })).toBe('Maximum 20 photos allowed');
    expect(startUploadError({ ...ok, pending: 0, uploaded: 12 })).toBe(
      'Choose photos to upload first.',
    );
  });
});
