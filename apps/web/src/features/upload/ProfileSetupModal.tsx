import { Modal } from '../../components/Modal';
import { buttonClass } from '../../components/ui';
import { StyleProfileForm } from './StyleProfileForm';

/**
 * Profile setup before the first upload: it opens only while the gender is missing (the age is
 * optional); both can be changed later in Settings.
 */
export function ProfileSetupModal({
  open,
  onClose,
  onSaved,
  defaults,
  genderRequired,
}: {
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
  defaults: { gender?: string | null; age?: number | null };
  /** Gender is still missing: the photos cannot go up without it. */
  genderRequired: boolean;
}) {
  return (
    <Modal open={open} onClose={onClose} eyebrow="Before you upload" title="Set up your profile">
      <p className="mb-6 text-stone-600">
        We use this to choose the right attire and styles for your headshots. You can change it
        later in Settings.
      </p>
      <StyleProfileForm
        defaults={defaults}
        onSaved={onSaved}
        submitLabel="Save and continue"
        autoFocus
        secondary={
          <button type="button" onClick={onClose} className={buttonClass('ghost')}>
            {genderRequired ? 'Not now' : 'Skip for now'}
          </button>
        }
      />
    </Modal>
  );
}
