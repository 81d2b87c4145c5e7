import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Modal } from './Modal';

/** A page with a heading and a button that opens a dialog (and optionally disables itself). */
function Page({ disableOpener = false }: { disableOpener?: boolean }) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  return (
    <main id="main">
      <h1>Credits</h1>
      <button
        type="button"
        disabled={disableOpener && used}
        onClick={() => {
          setOpen(true);
          setUsed(true);
        }}
      >
        Purchase
      </button>
      <Modal open={open} onClose={() => setOpen(false)} title="Checkout">
        <p>Pay here</p>
      </Modal>
    </main>
  );
}

describe('Modal focus', () => {
  it('returns focus to the control that opened it', async () => {
    render(<Page />);
    const opener = screen.getByRole('button', { name: 'Purchase' });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }));
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('goes to the page heading when the opener is now disabled, never to <body>', async () => {
    render(<Page disableOpener />);
    const opener = screen.getByRole('button', { name: 'Purchase' });
    opener.focus();
    fireEvent.click(opener);
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Credits' })),
    );
  });

  it('ignores a close event that arrives after the dialog has opened again', async () => {
    render(<Page />);
    const opener = screen.getByRole('button', { name: 'Purchase' });
    fireEvent.click(opener);
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText('Pay here')).toBeNull());
    fireEvent.click(opener);
    await screen.findByText('Pay here');
    // The first close's event, late: the dialog is open, so it stays open.
    fireEvent(screen.getByRole('dialog', { hidden: true }), new Event('close'));
    expect(screen.getByText('Pay here')).toBeTruthy();
  });

  it('closes on Escape at once, through the page, so the opener can open it again straight away', async () => {
    render(<Page />);
    const opener = screen.getByRole('button', { name: 'Purchase' });
    fireEvent.click(opener);
    await screen.findByText('Pay here');
    // Escape: the browser's 'cancel', with no 'close' yet (Chromium sends it a frame later).
    fireEvent(
      screen.getByRole('dialog', { hidden: true }),
      new Event('cancel', { cancelable: true }),
    );
    expect(screen.queryByText('Pay here')).toBeNull();
    fireEvent.click(opener);
    await screen.findByText('Pay here');
  });
});
