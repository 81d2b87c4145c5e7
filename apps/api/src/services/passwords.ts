import bcrypt from 'bcrypt';
import { createHash } from 'node:crypto';

// bcrypt silently ignores everything past 72 bytes. We hash a fixed-size SHA-256 digest of the
// whole password instead (base64: 44 ASCII bytes, no NULs), so every byte of it counts.
function prehash(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('base64');
}

export function hashPassword(password: string, cost: number): Promise<string> {
  return bcrypt.hash(prehash(password), cost);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(prehash(password), hash);
}
