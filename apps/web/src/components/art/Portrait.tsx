import { useId } from 'react';

export type PortraitStyle = 'executive' | 'creative' | 'business';

interface Palette {
  backdrop: [string, string];
  skin: string;
  skinShade: string;
  hair: string;
  jacket: string;
  lapel: string;
  shirt: string;
  tie?: string;
  hairShape: 'short' | 'curly' | 'bob';
}

const PALETTES: Record<PortraitStyle, Palette> = {
  executive: {
    backdrop: ['#57524d', '#1f1c1a'],
    skin: '#d2a47f',
    skinShade: '#b8896a',
    hair: '#2e241e',
    jacket: '#26292e',
    lapel: '#1a1c20',
    shirt: '#f4f1ec',
    tie: '#7a2f2a',
    hairShape: 'short',
  },
  creative: {
    backdrop: ['#e7b48f', '#a3582c'],
    skin: '#8f5d40',
    skinShade: '#764a31',
    hair: '#1d1613',
    jacket: '#3f4a3c',
    lapel: '#323b30',
    shirt: '#e9dfcf',
    hairShape: 'curly',
  },
  business: {
    backdrop: ['#f1eeea', '#c8c2bb'],
    skin: '#e6bf9f',
    skinShade: '#cfa584',
    hair: '#6b4a32',
    jacket: '#2c3d55',
    lapel: '#22324a',
    shirt: '#dbe6f1',
    hairShape: 'bob',
  },
};

const HAIR: Record<Palette['hairShape'], string> = {
  short:
    'M82 134 C78 96 102 82 122 84 C146 84 166 100 160 134 C154 114 138 106 121 107 C104 107 90 115 82 134 Z',
  curly:
    'M78 138 C66 118 74 92 92 84 C100 70 124 66 138 76 C156 76 172 96 166 120 C170 130 166 140 162 142 C156 120 142 108 121 108 C100 108 86 120 80 142 Z',
  bob: 'M76 152 C68 100 98 80 122 82 C150 82 176 104 166 152 C164 172 160 184 150 190 L152 132 C140 114 104 112 92 132 L92 190 C82 184 78 170 76 152 Z',
};

/**
 * A stylised portrait: 'after' is a lit studio headshot, 'before' the same person in a casual
 * selfie. Pure SVG, so the page needs no photo downloads.
 */
export function Portrait({
  style,
  variant,
  label,
  className,
}: {
  style: PortraitStyle;
  variant: 'before' | 'after';
  label: string;
  className?: string;
}) {
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const p = PALETTES[style];
  const after = variant === 'after';
  const jacket = after ? p.jacket : '#9aa3a8';
  return (
    <svg viewBox="0 0 240 300" role="img" aria-label={label} className={className}>
      <defs>
        <radialGradient id={`bg-${uid}`} cx="50%" cy="38%" r="75%">
          <stop offset="0%" stopColor={p.backdrop[0]} />
          <stop offset="100%" stopColor={p.backdrop[1]} />
        </radialGradient>
        <linearGradient id={`light-${uid}`} x1="0" y1="0" x2="1" y2="0">
          <stop offset="0%" stopColor="#fff" stopOpacity="0.22" />
          <stop offset="55%" stopColor="#fff" stopOpacity="0" />
        </linearGradient>
      </defs>
      {after ? (
        <rect width="240" height="300" fill={`url(#bg-${uid})`} />
      ) : (
        <g>
          <rect width="240" height="300" fill="#e6e0d6" />
          <rect
            x="150"
            y="26"
            width="70"
            height="96"
            rx="3"
            fill="#f8f5ef"
            stroke="#cfc6b8"
            strokeWidth="4"
          />
          <path d="M185 26 V122 M150 74 H220" stroke="#cfc6b8" strokeWidth="3" />
          <rect x="0" y="214" width="240" height="86" fill="#d6cbbb" />
          <ellipse cx="34" cy="120" rx="22" ry="34" fill="#93a383" opacity="0.7" />
          <rect x="26" y="146" width="16" height="22" rx="3" fill="#b4876a" />
        </g>
      )}
      <g transform={after ? undefined : 'rotate(-6 120 180)'}>
        <path d="M28 300 C38 236 80 214 120 212 C160 214 202 236 212 300 Z" fill={jacket} />
        {after && (
          <>
            <path d="M101 214 L120 264 L139 214 Z" fill={p.shirt} />
            <path d="M96 216 L120 290 L100 300 L70 300 L84 226 Z" fill={p.lapel} />
            <path d="M144 216 L120 290 L140 300 L170 300 L156 226 Z" fill={p.lapel} />
            {p.tie && <path d="M116 226 H124 L128 272 L120 284 L112 272 Z" fill={p.tie} />}
          </>
        )}
        {!after && <path d="M104 214 C110 230 130 230 136 214 Z" fill="#7d878d" />}
        <path d="M106 176 H134 V214 C126 222 114 222 106 214 Z" fill={p.skinShade} />
        <ellipse cx="82" cy="144" rx="7" ry="11" fill={p.skinShade} />
        <ellipse cx="158" cy="144" rx="7" ry="11" fill={p.skinShade} />
        <ellipse cx="120" cy="140" rx="38" ry="46" fill={p.skin} />
        <path d={HAIR[p.hairShape]} fill={p.hair} />
      </g>
      {after && <rect width="240" height="300" fill={`url(#light-${uid})`} />}
    </svg>
  );
}
