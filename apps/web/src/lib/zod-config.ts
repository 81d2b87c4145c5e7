import { z } from 'zod';

// The API's Content-Security-Policy allows no eval. zod would otherwise try `new Function` once
// to see whether it may compile its parsers, and the browser reports every such try as a policy
// violation; without eval zod parses the same, only by interpretation.
z.config({ jitless: true });
