import {
  ZAdminSessionSchema,
  ZFleetSchema,
  type Fleet,
  type FleetWorker,
} from '@studioshot/contracts/admin';
import { useMutation, useQuery } from '@tanstack/react-query';
import { PageState } from '../components/PageState';
import { buttonClass } from '../components/ui';
import { approximateDuration, formatGpuTime } from '../features/queue/durations';
import { api } from '../lib/api';
import { ApiError, errorMessage } from '../lib/api-client';
import { NotFoundPage as NotFound } from '../components/NotFoundPage';

/** How often the page reads the fleet again while it is open. */
const REFRESH_MS = 10_000;

const KIND_TITLES: Record<string, string> = {
  flux: 'Flux (GPU)',
  studio: 'Studio (CPU)',
  none: 'Photo checks',
};

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** The ops console's fleet page: for admins; to anyone else it is the page that is not there. */
export function Component() {
  const fleet = useQuery({
    queryKey: ['admin', 'fleet'],
    queryFn: () => api.get('/api/v1/admin/fleet', { schema: ZFleetSchema }),
    refetchInterval: REFRESH_MS,
  });

  if (fleet.error instanceof ApiError && fleet.error.status === 404) return <NotFound />;

  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
      <title>Fleet · Studioshot</title>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
            Fleet
          </h1>
          <p className="mt-2 text-stone-600">
            Workers online, what each is running, and what the GPUs cost.
          </p>
        </div>
        <QueueConsoleButton />
      </div>

      <div className="mt-8">
        {fleet.isPending ? (
          <PageState title="Loading the fleet..." busy />
        ) : fleet.isError ? (
          <PageState
            title="The fleet could not be read"
            message={errorMessage(fleet.error, 'Please try again.')}
            tone="error"
          >
            <button
              type="button"
              onClick={() => void fleet.refetch()}
              className={buttonClass('primary')}
            >
              Try Again
            </button>
          </PageState>
        ) : (
          <FleetView fleet={fleet.data} />
        )}
      </div>
    </section>
  );
}

/** Mints the console's cookie (the page's token never leaves the page), then opens it. */
function QueueConsoleButton() {
  const open = useMutation({
    mutationFn: () => api.post('/api/v1/admin/session', {}, { schema: ZAdminSessionSchema }),
    onSuccess: (session) => window.location.assign(`${session.console_path}/`),
  });
  return (
    <div className="flex flex-col items-start gap-1 sm:items-end">
      <button
        type="button"
        onClick={() => open.mutate()}
        disabled={open.isPending}
        className={buttonClass('secondary')}
      >
        {open.isPending ? 'Opening...' : 'Open queue console'}
      </button>
      {open.isError && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(open.error, 'The queue console could not be opened. Please try again.')}
        </p>
      )}
    </div>
  );
}

function FleetView({ fleet }: { fleet: Fleet }) {
  const cost = fleet.cost_projection;
  const wait = fleet.wait_estimate;
  const byKind = new Map<string, FleetWorker[]>();
  for (const worker of fleet.workers) {
    const kind = worker.engine_kind ?? 'none';
    byKind.set(kind, [...(byKind.get(kind) ?? []), worker]);
  }
  const waitText = (seconds: number | null, connected: boolean) =>
    !connected
      ? 'No worker connected'
      : seconds === null
        ? 'Not measured yet'
        : approximateDuration(seconds);

  return (
    <div className="flex flex-col gap-10">
      <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Figure label="Workers online" value={String(fleet.workers.length)} />
        <Figure
          label="GPU time today"
          value={formatGpuTime(fleet.gpu_seconds_today)}
          note="Since midnight UTC"
        />
        <Figure
          label="Projected monthly cost"
          value={money.format(cost.projected_monthly_cost)}
          note={`${cost.savings_percent}% below an always-on GPU (${money.format(cost.always_on_cost)})`}
        />
        <Figure
          label={`Wait for a training (${wait.engine_kind})`}
          value={waitText(wait.training.expected_seconds, wait.training.worker_connected)}
          note={`A generation: ${waitText(wait.generation.expected_seconds, wait.generation.worker_connected).toLowerCase()}`}
        />
      </dl>

      <section aria-labelledby="workers-heading">
        <h2 id="workers-heading" className="font-display text-xl font-semibold text-stone-950">
          Workers by engine kind
        </h2>
        {fleet.workers.length === 0 ? (
          <p className="mt-3 rounded-2xl border border-dashed border-stone-300 bg-white/60 p-6 text-stone-600">
            No workers online. Queued tasks wait until a worker connects.
          </p>
        ) : (
          <div className="mt-4 grid gap-6 lg:grid-cols-3">
            {[...byKind].map(([kind, workers]) => (
              <div key={kind}>
                <h3 className="text-sm font-semibold tracking-wide text-stone-500 uppercase">
                  {KIND_TITLES[kind] ?? kind} · {workers.length}
                </h3>
                <ul className="mt-2 flex flex-col gap-2">
                  {workers.map((worker) => (
                    <WorkerCard key={worker.name} worker={worker} />
                  ))}
                </ul>
              </div>
            ))}
          </div>
        )}
      </section>

      <section aria-labelledby="queues-heading">
        <h2 id="queues-heading" className="font-display text-xl font-semibold text-stone-950">
          Task queues
        </h2>
        <QueueTable queues={fleet.queues} />
      </section>
      <p className="text-sm text-stone-500">
        Read at {new Date(fleet.checked_at).toLocaleTimeString()}; refreshed every{' '}
        {REFRESH_MS / 1000} seconds.
      </p>
    </div>
  );
}

type FleetQueue = Fleet['queues'][number];

/** The queue table's columns after the queue's name, each a heading and how a row shows it. */
const QUEUE_COLUMNS: { heading: string; numeric: boolean; cell: (queue: FleetQueue) => string }[] =
  [
    { heading: 'Waiting', numeric: true, cell: (queue) => String(queue.waiting) },
    { heading: 'Running', numeric: true, cell: (queue) => String(queue.active) },
    { heading: 'Failed', numeric: true, cell: (queue) => String(queue.failed) },
    { heading: 'Workers', numeric: true, cell: (queue) => String(queue.workers) },
    {
      heading: 'Estimated wait',
      numeric: false,
      cell: (queue) =>
        queue.estimated_wait_seconds === null
          ? '—'
          : approximateDuration(queue.estimated_wait_seconds),
    },
  ];

const columnClass = (numeric: boolean) =>
  numeric ? 'px-4 py-2 text-right tabular-nums' : 'px-4 py-2 whitespace-nowrap';

function QueueTable({ queues }: { queues: FleetQueue[] }) {
  return (
    <div className="mt-4 overflow-x-auto rounded-2xl border border-stone-200 bg-white">
      <table className="w-full text-left text-sm">
        <thead className="bg-stone-50 text-stone-600">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">
              Queue
            </th>
            {QUEUE_COLUMNS.map((column) => (
              <th
                key={column.heading}
                scope="col"
                className={`${columnClass(column.numeric)} font-medium`}
              >
                {column.heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {queues.map((queue) => (
            <tr key={queue.queue} className="border-t border-stone-100">
              <th scope="row" className="px-4 py-2 font-mono font-normal text-stone-900">
                {queue.queue}
              </th>
              {QUEUE_COLUMNS.map((column) => (
                <td key={column.heading} className={columnClass(column.numeric)}>
                  {column.cell(queue)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="rounded-2xl border border-stone-200 bg-white p-5">
      <dt className="text-sm text-stone-600">{label}</dt>
      <dd className="mt-1 font-display text-2xl font-semibold text-stone-950">{value}</dd>
      {note && <dd className="mt-1 text-sm text-stone-500">{note}</dd>}
    </div>
  );
}

function WorkerCard({ worker }: { worker: FleetWorker }) {
  return (
    <li className="rounded-2xl border border-stone-200 bg-white p-4">
      <p className="font-mono text-sm break-all text-stone-900">{worker.name}</p>
      <p className="mt-1 text-xs text-stone-500">{worker.queues.join(', ')}</p>
      {worker.current_jobs.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600">Idle</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-1 text-sm text-stone-800">
          {worker.current_jobs.map((job) => (
            <li key={`${job.queue}/${job.job_id}`}>
              <span className="font-medium">{job.job_name}</span>{' '}
              <span className="font-mono text-xs break-all text-stone-600">{job.job_id}</span>
              {job.started_at && (
                <span className="text-stone-500">
                  {' '}
                  · since {new Date(job.started_at).toLocaleTimeString()}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
