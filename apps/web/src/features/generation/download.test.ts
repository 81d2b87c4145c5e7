import { describe, expect, it, vi } from 'vitest';
import {
  BULK_SPACING_DESKTOP_MS,
  BULK_SPACING_MOBILE_MS,
  chooseSaveMethod,
  downloadAll,
  downloadImage,
  isMobileDevice,
  NEW_TAB_INSTRUCTION,
  type DownloadDeps,
} from './download';

const IMAGE = { url: '/images/generated/a?token=t', filename: 'headshot-1.jpg' };
const abort = () => new DOMException('The user aborted a request.', 'AbortError');

/** A browser described by its abilities; every effect is recorded in `log`. */
function browser(options: {
  mobile?: boolean;
  picker?: 'saves' | 'cancelled' | 'refused' | 'absent';
  share?: 'shares' | 'cancelled' | 'fails' | 'absent';
  anchor?: 'saves' | 'throws';
  fetch?: 'ok' | 'fails';
}) {
  const log: string[] = [];
  const fetched: Blob[] = [];
  const written: Blob[] = [];
  const {
    mobile = false,
    picker = 'absent',
    share = 'absent',
    anchor = 'saves',
    fetch = 'ok',
  } = options;
  const deps: DownloadDeps = {
    fetchBlob: vi.fn(async (url: string) => {
      log.push(`fetch ${url}`);
      if (fetch === 'fails') throw new Error('403');
      const blob = new Blob([`jpeg of ${url}`], { type: 'image/jpeg' });
      fetched.push(blob);
      return blob;
    }),
    isMobile: () => mobile,
    showSaveFilePicker:
      picker === 'absent'
        ? undefined
        : async (opts) => {
            log.push(`picker ${opts.suggestedName}`);
            if (picker === 'cancelled') throw abort();
            if (picker === 'refused') throw new DOMException('No gesture', 'SecurityError');
            return {
              createWritable: async () => ({
                write: async (blob: Blob) => {
                  written.push(blob);
                },
                close: async () => {
                  log.push('picker closed');
                },
              }),
            };
          },
    canShare: (data) => share !== 'absent' && (data.files?.length ?? 0) > 0,
    share: async (data) => {
      log.push(`share ${data.files?.map((f) => f.name).join(',')}`);
      if (share === 'cancelled') throw abort();
      if (share === 'fails') throw new DOMException('Not allowed', 'NotAllowedError');
    },
    anchorDownload: (_blob, filename) => {
      log.push(`anchor ${filename}`);
      if (anchor === 'throws') throw new Error('blocked');
    },
    openInNewTab: (url) => log.push(`tab ${url}`),
    delay: async (ms) => {
      log.push(`wait ${ms}`);
    },
  };
  return { deps, log, fetched, written };
}

describe('chooseSaveMethod', () => {
  it('desktop: the save-file picker when there is one, else a plain download', () => {
    expect(chooseSaveMethod({ mobile: false, savePicker: true, shareFiles: true })).toBe('picker');
    expect(chooseSaveMethod({ mobile: false, savePicker: false, shareFiles: true })).toBe('anchor');
  });

  it('mobile: the share sheet when it takes files, else a plain download', () => {
    expect(chooseSaveMethod({ mobile: true, savePicker: true, shareFiles: true })).toBe('share');
    expect(chooseSaveMethod({ mobile: true, savePicker: true, shareFiles: false })).toBe('anchor');
  });
});

describe('isMobileDevice', () => {
  it('reads the user agent, iPadOS included', () => {
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148';
    const mac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15';
    const linux = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36';
    expect(isMobileDevice({ userAgent: iphone, maxTouchPoints: 5 })).toBe(true);
    expect(isMobileDevice({ userAgent: mac, maxTouchPoints: 5 })).toBe(true);
    expect(isMobileDevice({ userAgent: mac, maxTouchPoints: 0 })).toBe(false);
    expect(isMobileDevice({ userAgent: linux, maxTouchPoints: 0 })).toBe(false);
  });
});

describe('downloadImage', () => {
  it('desktop with a picker: the fetched blob is written where the user chose', async () => {
    const { deps, log, fetched, written } = browser({ picker: 'saves' });
    expect(await downloadImage(IMAGE, deps)).toEqual({ kind: 'saved', method: 'picker' });
    expect(log).toEqual([`fetch ${IMAGE.url}`, 'picker headshot-1.jpg', 'picker closed']);
    expect(written).toEqual([fetched[0]]);
    expect(written[0]).toBe(fetched[0]);
  });

  it('closing the picker is not a failure and saves nothing else', async () => {
    const { deps, log } = browser({ picker: 'cancelled' });
    expect(await downloadImage(IMAGE, deps)).toEqual({ kind: 'cancelled', method: 'picker' });
    expect(log.some((line) => line.startsWith('anchor') || line.startsWith('tab'))).toBe(false);
  });

  it('a refused picker falls back to the plain download', async () => {
    const { deps, log } = browser({ picker: 'refused' });
    expect(await downloadImage(IMAGE, deps)).toEqual({ kind: 'saved', method: 'anchor' });
    expect(log.at(-1)).toBe('anchor headshot-1.jpg');
  });

  it('desktop without a picker: the plain download', async () => {
    const { deps, log } = browser({});
    expect(await downloadImage(IMAGE, deps)).toEqual({ kind: 'saved', method: 'anchor' });
    expect(log).toEqual([`fetch ${IMAGE.url}`, 'anchor headshot-1.jpg']);
  });

  it('mobile: the share sheet with the image file', async () => {
    const { deps, log } = browser({ mobile: true, share: 'shares', picker: 'saves' });
    expect(await downloadImage(IMAGE, deps)).toEqual({ kind: 'saved', method: 'share' });
    expect(log.at(-1)).toBe('share headshot-1.jpg');
  });

  it('mobile: a failed share falls back to the plain download; a dismissed one does not', async () => {
    const failing = browser({ mobile: true, share: 'fails' });
    expect(await downloadImage(IMAGE, failing.deps)).toEqual({ kind: 'saved', method: 'anchor' });
    const dismissed = browser({ mobile: true, share: 'cancelled' });
    expect(await downloadImage(IMAGE, dismissed.deps)).toEqual({
      kind: 'cancelled',
      method: 'share',
    });
  });

  it('mobile without file sharing: the plain download', async () => {
    const { deps } = browser({ mobile: true, share: 'absent' });
    expect(await downloadImage(IMAGE, deps)).toEqual({ kind: 'saved', method: 'anchor' });
  });

  it('when the plain download throws: a new tab and the instruction', async () => {
    const { deps, log } = browser({ anchor: 'throws' });
    expect(await downloadImage(IMAGE, deps)).toEqual({
      kind: 'opened',
      instruction: NEW_TAB_INSTRUCTION,
    });
    expect(log.at(-1)).toBe(`tab ${IMAGE.url}`);
  });

  it('when the image cannot be fetched: a new tab and the instruction', async () => {
    const { deps, log } = browser({ fetch: 'fails', picker: 'saves' });
    expect((await downloadImage(IMAGE, deps)).kind).toBe('opened');
    expect(log).toEqual([`fetch ${IMAGE.url}`, `tab ${IMAGE.url}`]);
  });
});

describe('downloadAll', () => {
  const images = [1, 2, 3].map((n) => ({
    url: `/images/generated/${n}?token=t`,
    filename: `headshot-${n}.jpg`,
  }));

  it('desktop: one plain download each, 500 ms apart (no picker per image)', async () => {
    const { deps, log } = browser({ picker: 'saves' });
    const outcomes = await downloadAll(images, deps);
    expect(outcomes.map((o) => o.kind)).toEqual(['saved', 'saved', 'saved']);
    expect(log.filter((line) => !line.startsWith('fetch'))).toEqual([
      'anchor headshot-1.jpg',
      `wait ${BULK_SPACING_DESKTOP_MS}`,
      'anchor headshot-2.jpg',
      `wait ${BULK_SPACING_DESKTOP_MS}`,
      'anchor headshot-3.jpg',
    ]);
  });

  it('mobile without file sharing: plain downloads 800 ms apart', async () => {
    const { deps, log } = browser({ mobile: true });
    await downloadAll(images, deps);
    expect(log.filter((line) => line.startsWith('wait'))).toEqual([
      `wait ${BULK_SPACING_MOBILE_MS}`,
      `wait ${BULK_SPACING_MOBILE_MS}`,
    ]);
  });

  it('mobile with file sharing: one share sheet takes them all', async () => {
    const { deps, log } = browser({ mobile: true, share: 'shares' });
    const outcomes = await downloadAll(images, deps);
    expect(outcomes.every((o) => o.kind === 'saved')).toBe(true);
    expect(log.filter((line) => !line.startsWith('fetch'))).toEqual([
      'share headshot-1.jpg,headshot-2.jpg,headshot-3.jpg',
    ]);
  });

  it('an image that cannot be fetched opens in a tab; the others still download', async () => {
    const { deps, log } = browser({});
    deps.fetchBlob = vi.fn(async (url: string) => {
      if (url.includes('/2?')) throw new Error('403');
      return new Blob(['x'], { type: 'image/jpeg' });
    });
    const outcomes = await downloadAll(images, deps);
    expect(outcomes.map((o) => o.kind)).toEqual(['saved', 'opened', 'saved']);
    expect(log).toContain(`tab ${images[1]!.url}`);
  });

  it('nothing to save: nothing happens', async () => {
    const { deps, log } = browser({});
    expect(await downloadAll([], deps)).toEqual([]);
    expect(log).toEqual([]);
  });
});
