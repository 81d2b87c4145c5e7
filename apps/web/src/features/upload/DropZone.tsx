import { useEffect, useId, useRef, useState, type DragEvent, type Ref } from 'react';
import { buttonClass } from '../../components/ui';
import { ACCEPTED_PHOTO_TYPES, MAX_PHOTOS, MIN_PHOTOS } from './constants';
import { UploadCloudIcon } from '../../components/icons';

function carriesFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/**
 * Drag and drop zone with a file picker (JPEG, PNG, WebP; several at once). The picker is a real,
 * focusable file input, so Tab then Enter or Space opens it.
 */
export function DropZone({
  onFiles,
  disabled = false,
  disabledReason,
  inputRef,
  remaining,
}: {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
  disabledReason?: string;
  inputRef?: Ref<HTMLInputElement>;
  /** Photos that still fit in the set. */
  remaining: number;
}) {
  const inputId = useId();
  const hintId = useId();
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);

  // A photo dropped beside the zone must not make the browser leave the page to show it.
  useEffect(() => {
    const keep = (event: globalThis.DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', keep);
    window.addEventListener('drop', keep);
    return () => {
      window.removeEventListener('dragover', keep);
      window.removeEventListener('drop', keep);
    };
  }, []);

  const onDragEnter = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  };
  const onDragOver = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    if (!disabled) onFiles(Array.from(event.dataTransfer.files));
  };

  const active = dragging && !disabled;
  return (
    <section
      aria-label="Add photos"
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      data-dragging={active || undefined}
      className={`relative flex flex-col items-center rounded-2xl border-2 border-dashed px-5 py-10 text-center transition-colors sm:px-8 sm:py-12 ${
        active
          ? 'border-accent-500 bg-accent-50'
          : disabled
            ? 'border-stone-200 bg-stone-50'
            : 'border-stone-300 bg-white hover:border-stone-400'
      }`}
    >
      <span
        className={`flex size-14 items-center justify-center rounded-full ${active ? 'bg-accent-100 text-accent-700' : 'bg-stone-100 text-stone-600'}`}
      >
        <UploadCloudIcon className="size-7" />
      </span>
      <p className="mt-4 font-display text-xl font-semibold text-stone-950">
        {active ? (
          'Drop to add your photos'
        ) : (
          <>
            <span className="pointer-coarse:hidden">Drag and drop your photos here</span>
            <span className="hidden pointer-coarse:inline">Add your photos</span>
          </>
        )}
      </p>
      <p className="mt-1 text-sm text-stone-500 pointer-coarse:hidden">or</p>
      <label
        htmlFor={inputId}
        className={`${buttonClass('primary')} mt-3 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-accent-600 ${disabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer'}`}
      >
        Choose photos
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept={ACCEPTED_PHOTO_TYPES.join(',')}
          multiple
          disabled={disabled}
          aria-describedby={hintId}
          className="sr-only"
          onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            // Picking the same file again after removing it must fire a change.
            event.target.value = '';
            onFiles(files);
          }}
        />
      </label>
      <p id={hintId} className="mt-4 max-w-sm text-sm text-stone-600">
        {disabled && disabledReason ? (
          disabledReason
        ) : (
          <>
            JPEG, PNG or WebP, up to 50MB each.{' '}
            <span className="whitespace-nowrap">
              {MIN_PHOTOS}-{MAX_PHOTOS} photos
            </span>{' '}
            in all{remaining < MAX_PHOTOS ? `; room for ${remaining} more` : ''}.
          </>
        )}
      </p>
    </section>
  );
}
