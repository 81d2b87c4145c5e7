import { describe, expect, it } from 'vitest';
import {
  exportKey,
  generationImageKey,
  generationPrefix,
  isUserKey,
  legacyKeyToUserKey,
  modelArtifactKey,
  modelPrefix,
  photoKeys,
  photoSetPrefix,
  userPrefix,
} from './keys.js';
import { assertValidKey, assertValidPrefix, InvalidStorageKeyError } from './storage.js';

const U = '3f1c2a9e-8d4b-4c1e-9a7f-0b2d6e5c4a31';
const S = 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d';
const P = '11111111-2222-4333-8444-555555555555';

describe('storage keys', () => {
  it('puts everything of a person under users/{id}/', () => {
    expect(userPrefix(U)).toBe(`users/${U}/`);
    expect(photoKeys(U, S, P, 'png')).toEqual({
      original: `users/${U}/photos/${S}/${P}/original.png`,
      optimized: `users/${U}/photos/${S}/${P}/optimized.jpg`,
      thumbnail: `users/${U}/photos/${S}/${P}/thumbnail.jpg`,
    });
    expect(photoKeys(U, S, P).original).toBe(`users/${U}/photos/${S}/${P}/original.jpg`);
    expect(modelArtifactKey(U, P, 'model.npz')).toBe(`users/${U}/models/${P}/model.npz`);
    expect(generationImageKey(U, S, 'image-0_thumb.jpg')).toBe(
      `users/${U}/generations/${S}/image-0_thumb.jpg`,
    );
    expect(exportKey(U, P)).toBe(`users/${U}/exports/${P}.zip`);
    const all = [
      ...Object.values(photoKeys(U, S, P, 'webp')),
      modelArtifactKey(U, P, 'preview.jpg'),
      generationImageKey(U, S, 'a.png'),
      exportKey(U, P),
    ];
    for (const key of all) {
      expect(key.startsWith(userPrefix(U))).toBe(true);
      expect(isUserKey(key)).toBe(true);
      expect(() => assertValidKey(key)).not.toThrow();
    }
  });

  it('names the prefix of a model, a generation and a photo set: what deleting one removes', () => {
    expect(modelPrefix(U, P)).toBe(`users/${U}/models/${P}/`);
    expect(generationPrefix(U, S)).toBe(`users/${U}/generations/${S}/`);
    expect(photoSetPrefix(U, S)).toBe(`users/${U}/photos/${S}/`);
    expect(modelArtifactKey(U, P, 'model.npz').startsWith(modelPrefix(U, P))).toBe(true);
    expect(generationImageKey(U, S, 'a.jpg').startsWith(generationPrefix(U, S))).toBe(true);
    expect(photoKeys(U, S, P).thumbnail.startsWith(photoSetPrefix(U, S))).toBe(true);
    for (const prefix of [modelPrefix(U, P), generationPrefix(U, S), photoSetPrefix(U, S)])
      expect(() => assertValidPrefix(prefix)).not.toThrow();
    expect(() => modelPrefix(U, '../x')).toThrow(InvalidStorageKeyError);
    expect(() => photoSetPrefix('', S)).toThrow(InvalidStorageKeyError);
  });

  it.each([
    ['empty', ''],
    ['a slash', 'a/b'],
    ['parent', '..'],
    ['dot', '.'],
    ['a dot inside', 'a.b'],
    ['a backslash', 'a\\b'],
    ['a space', 'a b'],
    ['a leading dash', '-abc'],
    ['URL escapes', '%2e%2e'],
    ['NUL', 'a\0'],
    ['too long', 'a'.repeat(65)],
  ])('refuses an id with %s', (_label, bad) => {
    const calls = [
      () => userPrefix(bad),
      () => photoKeys(bad, S, P),
      () => photoKeys(U, bad, P),
      () => photoKeys(U, S, bad),
      () => modelArtifactKey(bad, P, 'model.npz'),
      () => modelArtifactKey(U, bad, 'model.npz'),
      () => generationImageKey(U, bad, 'a.jpg'),
      () => exportKey(U, bad),
    ];
    for (const call of calls) expect(call).toThrow(InvalidStorageKeyError);
  });

  it('refuses a non-string id', () => {
    expect(() => userPrefix(undefined as unknown as string)).toThrow(InvalidStorageKeyError);
    expect(() => userPrefix(42 as unknown as string)).toThrow(InvalidStorageKeyError);
  });

  it.each([
    ['empty', ''],
    ['a slash', 'a/b.jpg'],
    ['parent', '..'],
    ['a parent inside', 'a..b'],
    ['hidden', '.hidden'],
    ['a backslash', 'a\\b'],
    ['a space', 'a b.jpg'],
    ['a colon', 'c:x'],
    ['too long', `${'a'.repeat(130)}.jpg`],
  ])('refuses a file name with %s', (_label, bad) => {
    expect(() => modelArtifactKey(U, P, bad)).toThrow(InvalidStorageKeyError);
    expect(() => generationImageKey(U, S, bad)).toThrow(InvalidStorageKeyError);
  });

  it.each(['', 'JPG', 'j/pg', '.jpg', 'a.b', 'x'.repeat(11)])(
    'refuses the original extension %j',
    (bad) => {
      expect(() => photoKeys(U, S, P, bad)).toThrow(InvalidStorageKeyError);
    },
  );

  it('maps the layout before users/ to the new one, and nothing else', () => {
    expect(legacyKeyToUserKey(`photos/${U}/${S}/${P}/original.png`)).toBe(
      photoKeys(U, S, P, 'png').original,
    );
    expect(legacyKeyToUserKey(`photos/${U}/${S}/${P}/thumbnail.jpg`)).toBe(
      photoKeys(U, S, P).thumbnail,
    );
    expect(legacyKeyToUserKey(`models/${U}/${P}/model.npz`)).toBe(
      modelArtifactKey(U, P, 'model.npz'),
    );
    for (const other of [
      photoKeys(U, S, P).original,
      `photos/${U}/${S}/${P}`,
      `photos/${U}/${S}/${P}/a/b.jpg`,
      `models/${U}/model.npz`,
      `models/${U}/${P}/..`,
      `photos/../${S}/${P}/x.jpg`,
      'contract/local/x.txt',
    ]) {
      expect(legacyKeyToUserKey(other)).toBeNull();
    }
  });
});
