/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Optional API origin; empty means same origin (the API serves this app). */
  readonly VITE_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
