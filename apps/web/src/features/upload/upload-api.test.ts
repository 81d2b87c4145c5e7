import { MESSAGES } from '@studioshot/contracts/messages';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { createMemoryStorage, STORAGE_KEYS } from '../../lib/storage';
import { stubUploads, uploadedPhoto } from './testing';
import { sendMultipart } from './transport';
import { createPhotoUploader, deleteUploadedPhoto } from './upload-api';

const SESSION = '11111111-1111-4111-8111-111111111111';
const photoFile = () => new File(['jpeg-bytes'], 'me.jpg', { type: 'image/jpeg' });

describe('multipart transport', () => {
  it('posts the file in field "file" with the bearer token, a 60 s timeout and progress', async () => {
    const sent = stubUploads(() => [201, { ok: true }]);
    const progress: number[] = [];
    const answer = await sendMultipart({
      url: '/api/v1/upload/file/s',
      file: photoFile(),
      filename: 'me.jpg',
      token: 'tok',
      timeoutMs: 60_000,
      onProgress: (f) => progress.push(f),
    });
    expect(answer).toEqual({ status: 201, ok: true, body: { ok: true } });
    expect(sent[0]).toMatchObject({
      url: '/api/v1/upload/file/s',
      headers: { Authorization: 'Bearer tok', Accept: 'application/json' },
      timeout: 60_000,
    });
    expect(sent[0]?.file?.name).toBe('me.jpg');
    expect(progress).toEqual([0.5, 1, 1]);
  });

  it('turns no answer into a network ApiError and a cancel into an AbortError', async () => {
    stubUploads(() => 'network-error');
    await expect(
      sendMultipart({ url: '/u', file: photoFile(), filename: 'a', token: null, timeoutMs: 1 }),
    ).rejects.toMatchObject({ status: 0, code: 'network_error', detail: MESSAGES.network });

    stubUploads(() => 'timeout');
    await expect(
      sendMultipart({ url: '/u', file: photoFile(), filename: 'a', token: null, timeoutMs: 1 }),
    ).rejects.toMatchObject({ status: 0, code: 'timeout' });

    stubUploads(() => 'hang');
    const controller = new AbortController();
    const pending = sendMultipart({
      url: '/u',
      file: photoFile(),
      filename: 'a',
      token: null,
      timeoutMs: 1,
      signal: controller.signal,
    });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('photo uploader', () => {
  it('returns the uploaded photo, checked against the contract', async () => {
    stubUploads(() => [201, uploadedPhoto(1)]);
    const storage = createMemoryStorage({ [STORAGE_KEYS.accessToken]: 'a1' });
    const upload = createPhotoUploader({ storage, baseUrl: '' });
    const photo = await upload(SESSION, photoFile());
    expect(photo.id).toBe(uploadedPhoto(1).id);
    expect(photo.check_status).toBe('pending');
  });

  it("surfaces the server's {detail, code}", async () => {
    stubUploads(() => [415, { detail: MESSAGES.invalidFileType, code: 'unsupported_media_type' }]);
    const storage = createMemoryStorage({ [STORAGE_KEYS.accessToken]: 'a1' });
    const upload = createPhotoUploader({ storage, baseUrl: '' });
    const error = await upload(SESSION, photoFile()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 415,
      code: 'unsupported_media_type',
      detail: MESSAGES.invalidFileType,
    });
  });

  it('refreshes once on a 401 and replays with the new token', async () => {
    const sent = stubUploads((request) =>
      request.headers.Authorization === 'Bearer old'
        ? [401, { detail: 'expired', code: 'unauthorized' }]
        : [201, uploadedPhoto(2)],
    );
    const storage = createMemoryStorage({ [STORAGE_KEYS.accessToken]: 'old' });
    const refresh = vi.fn(async () => 'new');
    const upload = createPhotoUploader({ storage, baseUrl: '', refresh });
    await upload(SESSION, photoFile());
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(sent.map((s) => s.headers.Authorization)).toEqual(['Bearer old', 'Bearer new']);
  });

  it('needs a token: "Authentication required"', async () => {
    const sent = stubUploads(() => [201, uploadedPhoto(1)]);
    const upload = createPhotoUploader({ storage: createMemoryStorage(), baseUrl: '' });
    await expect(upload(SESSION, photoFile())).rejects.toMatchObject({
      status: 401,
      detail: 'Authentication required',
    });
    expect(sent).toHaveLength(0);
  });
});

describe('photo removal', () => {
  it('sends DELETE and accepts the 204 without a body', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(deleteUploadedPhoto('p-1')).resolves.toBeUndefined();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/v1/upload/photos/p-1',
      expect.objectContaining({ method: 'DELETE' }),
    );
  });
});
