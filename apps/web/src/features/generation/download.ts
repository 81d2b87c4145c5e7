/**
 * Image download behaviour (product spec): fetch the image as a blob and save it, with a
 * save-file picker on desktop, a share sheet on mobile, a plain download as the fallback, and if
 * even that fails, the image in a new tab with an instruction. Bulk downloads are spaced 500 ms
 * apart on desktop and 800 ms on mobile (docs/spec/constants.md), so browsers do not drop any.
 */

export const BULK_SPACING_DESKTOP_MS = 500;
export const BULK_SPACING_MOBILE_MS = 800;
export const NEW_TAB_INSTRUCTION =
  'Your headshot opened in a new tab. To save it, right-click the image (or press and hold it on a phone) and choose Save Image.';
/** How long an object URL lives after its click: long enough for the browser to start saving. */
const REVOKE_AFTER_MS = 60_000;

export interface DownloadableImage {
  /** An address the browser can fetch (already resolved against the API origin). */
  url: string;
  filename: string;
}

export type SaveMethod = 'picker' | 'share' | 'anchor';

/** What the browser offers; read once per download so tests can describe any browser. */
export interface SaveCapabilities {
  mobile: boolean;
  /** window.showSaveFilePicker exists (Chromium desktop). */
  savePicker: boolean;
  /** navigator.share accepts files (navigator.canShare({files}) said yes). */
  shareFiles: boolean;
}

/** Which way to save one image: the picker on desktop, the share sheet on mobile, else a link. */
export function chooseSaveMethod(caps: SaveCapabilities): SaveMethod {
  if (caps.mobile) return caps.shareFiles ? 'share' : 'anchor';
  return caps.savePicker ? 'picker' : 'anchor';
}

export function bulkSpacingMs(mobile: boolean): number {
  return mobile ? BULK_SPACING_MOBILE_MS : BULK_SPACING_DESKTOP_MS;
}

export type DownloadOutcome =
  /** Saved (picker or link) or handed to the share sheet. */
  | { kind: 'saved'; method: SaveMethod }
  /** The user closed the picker or the share sheet: nothing more to do. */
  | { kind: 'cancelled'; method: SaveMethod }
  /** Saving failed: the image was opened in a new tab, with `NEW_TAB_INSTRUCTION` to show. */
  | { kind: 'opened'; instruction: string };

interface SaveFilePickerHandle {
  createWritable(): Promise<{ write(data: Blob): Promise<void>; close(): Promise<void> }>;
}
type ShowSaveFilePicker = (options: {
  suggestedName?: string;
  types?: { description: string; accept: Record<string, string[]> }[];
}) => Promise<SaveFilePickerHandle>;

/** The browser, behind one seam, so every branch can be tested without a browser. */
export interface DownloadDeps {
  fetchBlob(url: string): Promise<Blob>;
  isMobile(): boolean;
  showSaveFilePicker: ShowSaveFilePicker | undefined;
  canShare(data: ShareData): boolean;
  share(data: ShareData): Promise<void>;
  /** Saves through a temporary <a download> on an object URL. */
  anchorDownload(blob: Blob, filename: string): void;
  openInNewTab(url: string): void;
  /** Waits between the images of a bulk download. */
  delay(ms: number): Promise<void>;
}

/** Mobile by the UA hints where present, else by the user agent (iPadOS says Macintosh + touch). */
export function isMobileDevice(nav: Pick<Navigator, 'userAgent' | 'maxTouchPoints'>): boolean {
  const hinted = (nav as { userAgentData?: { mobile?: boolean } }).userAgentData?.mobile;
  if (typeof hinted === 'boolean') return hinted;
  const ua = nav.userAgent;
  return (
    /Android|iPhone|iPad|iPod|Mobile|Silk|Opera Mini/i.test(ua) ||
    (/Macintosh/.test(ua) && (nav.maxTouchPoints ?? 0) > 1)
  );
}

async function fetchBlob(url: string): Promise<Blob> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`image download failed (${response.status})`);
  return response.blob();
}

export function browserDownloadDeps(): DownloadDeps {
  return {
    fetchBlob,
    isMobile: () => isMobileDevice(navigator),
    showSaveFilePicker: (window as unknown as { showSaveFilePicker?: ShowSaveFilePicker })
      .showSaveFilePicker,
    canShare: (data) => typeof navigator.canShare === 'function' && navigator.canShare(data),
    share: (data) => navigator.share(data),
    anchorDownload(blob, filename) {
      const href = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = href;
      link.download = filename;
      link.rel = 'noopener';
      link.style.display = 'none';
      document.body.append(link);
      try {
        link.click();
      } finally {
        link.remove();
        setTimeout(() => URL.revokeObjectURL(href), REVOKE_AFTER_MS);
      }
    },
    openInNewTab(url) {
      window.open(url, '_blank', 'noopener');
    },
    delay: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

function capabilities(deps: DownloadDeps, probe: File): SaveCapabilities {
  let shareFiles = false;
  try {
    shareFiles = deps.canShare({ files: [probe] });
  } catch {
    shareFiles = false;
  }
  return {
    mobile: deps.isMobile(),
    savePicker: typeof deps.showSaveFilePicker === 'function',
    shareFiles,
  };
}

async function saveWithPicker(deps: DownloadDeps, blob: Blob, filename: string): Promise<void> {
  const handle = await deps.showSaveFilePicker!({
    suggestedName: filename,
    types: [{ description: 'JPEG image', accept: { 'image/jpeg': ['.jpg', '.jpeg'] } }],
  });
  const writable = await handle.createWritable();
  await writable.write(blob);
  await writable.close();
}

function asFile(blob: Blob, filename: string): File {
  return new File([blob], filename, { type: blob.type || 'image/jpeg' });
}

function openInstead(deps: DownloadDeps, url: string): DownloadOutcome {
  deps.openInNewTab(url);
  return { kind: 'opened', instruction: NEW_TAB_INSTRUCTION };
}

/** The plain download, and the new tab when even that throws. */
function anchorOrTab(deps: DownloadDeps, image: DownloadableImage, blob: Blob): DownloadOutcome {
  try {
    deps.anchorDownload(blob, image.filename);
    return { kind: 'saved', method: 'anchor' };
  } catch {
    return openInstead(deps, image.url);
  }
}

/** Saves one image the way this browser allows best. */
export async function downloadImage(
  image: DownloadableImage,
  deps: DownloadDeps = browserDownloadDeps(),
): Promise<DownloadOutcome> {
  let blob: Blob;
  try {
    blob = await deps.fetchBlob(image.url);
  } catch {
    return openInstead(deps, image.url);
  }
  const method = chooseSaveMethod(capabilities(deps, asFile(blob, image.filename)));
  if (method === 'picker') {
    try {
      await saveWithPicker(deps, blob, image.filename);
      return { kind: 'saved', method };
    } catch (error) {
      if (isAbort(error)) return { kind: 'cancelled', method };
      // A picker refused (no user gesture left, a blocked folder): the plain download.
      return anchorOrTab(deps, image, blob);
    }
  }
  if (method === 'share') {
    try {
      await deps.share({ files: [asFile(blob, image.filename)], title: image.filename });
      return { kind: 'saved', method };
    } catch (error) {
      if (isAbort(error)) return { kind: 'cancelled', method };
      return anchorOrTab(deps, image, blob);
    }
  }
  return anchorOrTab(deps, image, blob);
}

/**
 * Saves every image. A picker or a share sheet needs a fresh click for each use, which a bulk
 * download does not have after its first image, so: on desktop every image goes through the
 * plain download; on mobile one share sheet takes them all when it can, else plain downloads.
 * Downloads are spaced 500 ms (desktop) or 800 ms (mobile) apart.
 */
export async function downloadAll(
  images: readonly DownloadableImage[],
  deps: DownloadDeps = browserDownloadDeps(),
): Promise<DownloadOutcome[]> {
  if (images.length === 0) return [];
  const mobile = deps.isMobile();
  const spacing = bulkSpacingMs(mobile);
  const outcomes: DownloadOutcome[] = [];
  const blobs: (Blob | null)[] = [];
  for (const image of images) {
    blobs.push(await deps.fetchBlob(image.url).catch(() => null));
  }

  if (mobile && blobs.every((blob) => blob !== null)) {
    const files = images.map((image, i) => asFile(blobs[i]!, image.filename));
    let shareable = false;
    try {
      shareable = deps.canShare({ files });
    } catch {
      shareable = false;
    }
    if (shareable) {
      try {
        await deps.share({ files, title: 'Your headshots' });
        return images.map(() => ({ kind: 'saved', method: 'share' }));
      } catch (error) {
        if (isAbort(error)) return images.map(() => ({ kind: 'cancelled', method: 'share' }));
        // Fall through to one plain download each.
      }
    }
  }

  for (const [i, image] of images.entries()) {
    if (i > 0) await deps.delay(spacing);
    const blob = blobs[i];
    outcomes.push(blob ? anchorOrTab(deps, image, blob) : openInstead(deps, image.url));
  }
  return outcomes;
}
