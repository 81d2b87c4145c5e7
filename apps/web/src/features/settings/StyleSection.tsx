import type { User } from '@studioshot/contracts';
import { useState } from 'react';
import { StyleProfileForm } from '../upload/StyleProfileForm';
import { Notice, SettingsSection } from './SettingsSection';

/** Gender and age, asked once before the first upload and changed here. */
export function StyleSection({ user }: { user: User }) {
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <SettingsSection
      title="Headshot styling"
      description="Used to choose the attire and styles of your headshots."
    >
      <StyleProfileForm
        defaults={{ gender: user.gender, age: user.age }}
        onSaved={() => setSaved('Styling saved')}
        submitLabel="Save styling"
        secondary={<Notice message={saved} />}
      />
    </SettingsSection>
  );
}
