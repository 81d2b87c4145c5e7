import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Logger } from 'pino';

/**
 * When a ReplicaSet scales in, it removes the pods with the lowest value of this annotation first.
 * A worker running a job marks its pod high, an idle one low: KEDA's scale-in then stops idle
 * workers rather than ones halfway through a training. (A training stopped anyway goes back to the
 * queue and resumes from its last checkpoint on the next worker.)
 */
export const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';
export const BUSY_COST = 1000;
export const IDLE_COST = 0;

/** Where a pod finds its service account's credentials and the API server. */
const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** The one call the worker makes to the Kubernetes API: annotate its own pod. */
export class KubernetesPodClient {
  constructor(
    private readonly options: {
      /** The API server, e.g. https://10.0.0.1:443. */
      apiUrl: string;
      namespace: string;
      pod: string;
      /** The service account token's file, read on each call (Kubernetes rotates it). */
      tokenFile: string;
      /** The cluster's CA certificate (PEM), for an https API server. */
      ca?: string;
    },
  ) {}

  /** The client a pod uses: its service account, the API server Kubernetes tells it about. */
  static inCluster(env: { POD_NAME: string; POD_NAMESPACE: string }, ca: string) {
    const host = process.env.KUBERNETES_SERVICE_HOST;
    const port = process.env.KUBERNETES_SERVICE_PORT ?? '443';
    if (!host)
      throw new Error('POD_DELETION_COST=on outside Kubernetes (no KUBERNETES_SERVICE_HOST)');
    return new KubernetesPodClient({
      apiUrl: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
      namespace: env.POD_NAMESPACE,
      pod: env.POD_NAME,
      tokenFile: `${SERVICE_ACCOUNT_DIR}/token`,
      ca,
    });
  }

  async setDeletionCost(cost: number): Promise<void> {
    const token = (await readFile(this.options.tokenFile, 'utf8')).trim();
    const { namespace, pod } = this.options;
    const url = new URL(
      `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}`,
      this.options.apiUrl,
    );
    const body = JSON.stringify({
      metadata: { annotations: { [POD_DELETION_COST_ANNOTATION]: String(cost) } },
    });
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    await new Promise<void>((resolve, reject) => {
      const req = send(
        url,
        {
          method: 'PATCH',
          ca: this.options.ca,
          timeout: 10_000,
          headers: {
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/merge-patch+json',
            Accept: 'application/json',
            'Content-Length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            if (status >= 200 && status < 300) resolve();
            else reject(new Error(`Kubernetes API answered ${status}: ${text.slice(0, 200)}`));
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('Kubernetes API did not answer')));
      req.on('error', reject);
      req.end(body);
    });
  }
}

/** What a BullMQ worker tells about its jobs (only the events this needs). */
interface JobEvents {
  on(event: 'active', listener: (job: { id?: string }) => void): unknown;
  on(event: 'completed', listener: (job: { id?: string }) => void): unknown;
  on(event: 'failed', listener: (job: { id?: string } | undefined) => void): unknown;
}

/**
 * Follows the jobs this worker runs and keeps its pod's deletion cost in step: busy while any runs,
 * idle when none does. Only changes are sent, one call at a time, the latest state last. A failed
 * call is logged and costs only the preference: the next change sends the state again.
 */
export class PodDeletionCost {
  private readonly running = new Set<string>();
  private sent: number | undefined;
  private sending: Promise<void> | undefined;
  /** A change came while a call was out: look again once it is back. */
  private changed = false;

  constructor(
    private readonly pod: Pick<KubernetesPodClient, 'setDeletionCost'>,
    private readonly logger: Logger,
  ) {}

  /** Counts the jobs of these workers. */
  follow(workers: JobEvents[]): void {
    for (const worker of workers) {
      worker.on('active', (job) => this.started(job.id));
      worker.on('completed', (job) => this.ended(job.id));
      worker.on('failed', (job) => this.ended(job?.id));
    }
  }

  started(jobId: string | undefined): void {
    if (jobId) this.running.add(jobId);
    this.update();
  }

  ended(jobId: string | undefined): void {
    if (jobId) this.running.delete(jobId);
    this.update();
  }

  /** Resolves once every change so far has been sent (or has failed). */
  async settled(): Promise<void> {
    while (this.sending) await this.sending;
  }

  private wanted(): number {
    return this.running.size > 0 ? BUSY_COST : IDLE_COST;
  }

  private update(): void {
    if (this.sending) {
      this.changed = true;
      return;
    }
    this.sending = this.send().finally(() => {
      this.sending = undefined;
      if (this.changed) this.update();
    });
  }

  private async send(): Promise<void> {
    this.changed = false;
    while (this.sent !== this.wanted()) {
      const cost = this.wanted();
      try {
        await this.pod.setDeletionCost(cost);
        this.sent = cost;
      } catch (error) {
        this.logger.warn({ err: error, cost }, 'could not mark the pod deletion cost');
        return;
      }
    }
  }
}

/** The pod deletion cost this worker keeps, or null where the setting is off. */
export async function podDeletionCost(
  env: { POD_DELETION_COST: 'on' | 'off'; POD_NAME?: string; POD_NAMESPACE?: string },
  logger: Logger,
): Promise<PodDeletionCost | null> {
  if (env.POD_DELETION_COST === 'off') return null;
  if (!env.POD_NAME || !env.POD_NAMESPACE)
    throw new Error('POD_DELETION_COST=on needs POD_NAME and POD_NAMESPACE');
  const ca = await readFile(`${SERVICE_ACCOUNT_DIR}/ca.crt`, 'utf8');
  const client = KubernetesPodClient.inCluster(
    { POD_NAME: env.POD_NAME, POD_NAMESPACE: env.POD_NAMESPACE },
    ca,
  );
  return new PodDeletionCost(client, logger);
}
