import { useCallback, useState } from 'react';
import { toast } from '../../lib/toast';
import {
  browserDownloadDeps,
  downloadAll,
  downloadImage,
  type DownloadableImage,
  type DownloadDeps,
  type DownloadOutcome,
} from './download';
import { imageSrc } from './generation-api';

/** The instruction stays up longer than a normal toast: the user has to act on it. */
const INSTRUCTION_TOAST_MS = 12_000;

export interface SavableImage {
  id: string;
  url: string;
  filename: string;
}

const downloadable = (image: SavableImage): DownloadableImage => ({
  url: imageSrc(image.url),
  filename: image.filename,
});

function announce(outcomes: DownloadOutcome[]): void {
  const opened = outcomes.find((outcome) => outcome.kind === 'opened');
  if (opened?.kind === 'opened') toast.info(opened.instruction, INSTRUCTION_TOAST_MS);
  const saved = outcomes.filter((outcome) => outcome.kind === 'saved').length;
  if (saved === 0) return;
  toast.success(saved === 1 ? 'Headshot saved.' : `${saved} headshots saved.`);
}

/**
 * Per-image Download and Download All for a grid of headshots, with what happened told in a toast.
 * `saving` is the id being saved, 'all' during Download All, or null.
 */
export function useImageDownloads(deps?: DownloadDeps) {
  const [saving, setSaving] = useState<string | null>(null);

  const save = useCallback(
    async (image: SavableImage) => {
      setSaving(image.id);
      try {
        announce([await downloadImage(downloadable(image), deps ?? browserDownloadDeps())]);
      } finally {
        setSaving(null);
      }
    },
    [deps],
  );

  const saveAll = useCallback(
    async (images: readonly SavableImage[]) => {
      setSaving('all');
      try {
        announce(await downloadAll(images.map(downloadable), deps ?? browserDownloadDeps()));
      } finally {
        setSaving(null);
      }
    },
    [deps],
  );

  return { saving, save, saveAll };
}
