import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { loadEnv } from '../src/env.js';
import { createTestApp, uniqueEmail, type TestApp } from './helpers.js';

// Found in review: behind the nginx front everyone shared one per-address counter, and a
// blanket `trust proxy` would let any client pick its own address. The API trusts exactly the
// proxy hops it is told to, and the shipped deployment files name exactly theirs.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((t) => t.close())));

async function appWith(trustProxy: string | undefined): Promise<TestApp> {
  const t = await createTestApp({
    LOGIN_MAX_PER_IP: '3',
    ...(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy }),
  });
  apps.push(t);
  return t;
}

const login = (t: TestApp, forwardedFor: string) =>
  t.request
    .post('/api/v1/auth/login')
    .set('X-Forwarded-For', forwardedFor)
    .send({ email: uniqueEmail(), password: 'wrong password' });

/** Four failed sign-ins claiming four different client addresses: the statuses. */
async function fourClaimedAddresses(t: TestApp, claim: (i: number) => string) {
  const statuses: number[] = [];
  for (let i = 0; i < 4; i += 1) statuses.push((await login(t, claim(i))).status);
  return statuses;
}

/** The `trust proxy` and the proxy addresses docker-compose.yml ships. */
function composeTrust() {
  const compose = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
  const trust = /^\s+TRUST_PROXY:\s*['"]?([^'"\s#]+)/m.exec(compose)?.[1];
  const proxyAddress = /^\s+ipv4_address:\s*['"]?([^'"\s#]+)/m.exec(compose)?.[1];
  const subnet = /^\s+- subnet:\s*['"]?([^'"\s#]+)/m.exec(compose)?.[1];
  return { trust, proxyAddress, subnet };
}

describe('trust proxy', () => {
  it('by default trusts no proxy: a client cannot pick its address with X-Forwarded-For', async () => {
    const t = await appWith(undefined);
    expect(t.c.env.TRUST_PROXY).toBe(false);
    expect(await fourClaimedAddresses(t, (i) => `198.18.0.${i}`)).toEqual([401, 401, 401, 429]);
  });

  it('honours X-Forwarded-For from a trusted proxy address, and only its last hop', async () => {
    const t = await appWith('loopback'); // supertest's connection plays the proxy
    expect(await fourClaimedAddresses(t, (i) => `198.18.1.${i}`)).toEqual([401, 401, 401, 401]);
    // A client that writes its own chain is still counted by the address the proxy saw.
    expect(await fourClaimedAddresses(t, (i) => `198.18.2.${i}, 198.18.3.1`)).toEqual([
      401, 401, 401, 429,
    ]);
  });

  it('ignores X-Forwarded-For from any other address', async () => {
    const t = await appWith('172.30.57.250');
    expect(await fourClaimedAddresses(t, (i) => `198.18.4.${i}`)).toEqual([401, 401, 401, 429]);
  });

  it('refuses to trust every hop, and takes hop counts and address lists', () => {
    const base = {
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/db',
      REDIS_URL: 'redis://127.0.0.1:6379',
      JWT_SECRET: 'x'.repeat(32),
    };
    expect(() => loadEnv({ ...base, TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: true would trust/,
    );
    expect(() => loadEnv({ ...base, TRUST_PROXY: 'nginx' })).toThrow(/TRUST_PROXY/);
    expect(() => loadEnv({ ...base, TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(loadEnv(base).TRUST_PROXY).toBe(false);
    expect(loadEnv({ ...base, TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadEnv({ ...base, TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadEnv({ ...base, TRUST_PROXY: '10.0.0.2, fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.2',
      'fd00::/8',
      'loopback',
    ]);
  });
});

describe('the shipped deployment files trust exactly their proxy hops', () => {
  it('docker-compose: the api trusts the nginx service by its fixed address, nothing else', async () => {
    const { trust, proxyAddress, subnet } = composeTrust();
    expect(trust, 'TRUST_PROXY in docker-compose.yml').toBeDefined();
    expect(trust).toBe(proxyAddress);
    const [net, bits] = subnet!.split('/');
    expect(Number(bits)).toBe(24);
    expect(proxyAddress!.split('.').slice(0, 3)).toEqual(net!.split('.').slice(0, 3));

    // Express, configured as compose configures it: the nginx hop is trusted; the Docker
    // gateway (how a direct visitor of port 8080 arrives) and other containers are not.
    const t = await appWith(trust);
    const trusts = createApp(t.c).get('trust proxy fn') as (addr: string, i: number) => boolean;
    expect(trusts(proxyAddress!, 0)).toBe(true);
    expect(trusts(`${net!.split('.').slice(0, 3).join('.')}.1`, 0)).toBe(false);
    expect(trusts(`${net!.split('.').slice(0, 3).join('.')}.2`, 0)).toBe(false);
    expect(trusts('127.0.0.1', 0)).toBe(false);
    // A visitor of port 8080 forging X-Forwarded-For is counted by its own address.
    expect(await fourClaimedAddresses(t, (i) => `198.18.5.${i}`)).toEqual([401, 401, 401, 429]);
  });

  it('nginx: the edge replaces any X-Forwarded-For a client sends with the address it sees', () => {
    const conf = readFileSync(path.join(ROOT, 'infra/nginx.conf'), 'utf8');
    expect(conf).not.toMatch(/\$proxy_add_x_forwarded_for/);
    // Location blocks hold no nested braces here; what is left without them is the server level.
    const locationBlock = /\blocation\b[^{]*\{[^}]*\}/g;
    const serverLevel = conf.replace(locationBlock, '');
    const proxied = (conf.match(locationBlock) ?? []).filter((block) =>
      block.includes('proxy_pass'),
    );
    expect(proxied.length).toBeGreaterThan(0);
    const setsClientAddress = /proxy_set_header\s+X-Forwarded-For\s+\$remote_addr;/;
    // A location inherits the server's proxy_set_header lines only while it sets none of its own
    // (nginx's rule), so each proxied location either sets the address itself or sets no header.
    for (const block of proxied) {
      if (setsClientAddress.test(block)) continue;
      expect(serverLevel).toMatch(setsClientAddress);
      expect(block).not.toMatch(/proxy_set_header/);
    }
  });
});
