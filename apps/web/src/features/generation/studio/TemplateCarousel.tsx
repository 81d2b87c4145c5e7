import { templateDescription, type Template } from '@studioshot/templates';
import { useEffect, useRef, type CSSProperties, type PointerEvent } from 'react';
import { ChevronLeftIcon, ChevronRightIcon } from '../../../components/icons';
import { templateImage, visibleSlides } from './studio-logic';

/** A horizontal drag at least this long (px) on the stage is a swipe. */
export const SWIPE_MIN_PX = 40;

/**
 * The card is 400x450 at most and 78% of the carousel's width on narrow screens; the stage is
 * the card plus 50 px: 500 px tall at full size (spec: template image 400x450, 500 px carousel).
 */
const CARD_WIDTH = 'min(400px, 78cqw)';
const STAGE_HEIGHT = `calc(${CARD_WIDTH} * 1.125 + 50px)`;

function slideStyle(offset: number): CSSProperties {
  const distance = Math.abs(offset);
  return {
    width: CARD_WIDTH,
    transform: `translateX(-50%) translateX(${offset * 58}%) translateZ(${-distance * 140}px) rotateY(${-offset * 32}deg)`,
    zIndex: 10 - distance,
    opacity: distance === 0 ? 1 : distance === 1 ? 0.8 : 0.45,
  };
}

const navButton =
  'absolute top-1/2 z-20 grid size-11 -translate-y-1/2 place-items-center rounded-full border border-stone-300 bg-white/95 text-stone-900 shadow-md transition-colors hover:bg-white hover:border-stone-400';

/**
 * The 3D template carousel: the selected template in the centre with up to two either side,
 * wrap-around Previous and Next, a swipe on touch screens (pointer events), dots to jump, and
 * 'Template X of N' announced as it changes. Moves go through `onMove`/`onGoTo`, which apply the
 * 300 ms lock.
 */
export function TemplateCarousel({
  templates,
  index,
  variant,
  headingId,
  engine,
  onMove,
  onGoTo,
}: {
  templates: readonly Template[];
  index: number;
  variant: number;
  /** The engine that will render (the model's model_type): the slide's text is its own. */
  engine: string;
  /** The visible heading that names the carousel. */
  headingId: string;
  onMove: (delta: number) => void;
  onGoTo: (index: number) => void;
}) {
  const count = templates.length;
  const active = templates[index];
  const slides = visibleSlides(index, count);
  const swipe = useRef<{ id: number; x: number; y: number } | null>(null);
  // A swipe ends with a click on whatever card is under the finger: that click is not a choice.
  const swiped = useRef(false);
  const dots = useRef<HTMLDivElement>(null);

  // The dots are one tab stop (the current one); when the carousel moves while focus is on them,
  // focus follows to the new current dot.
  useEffect(() => {
    const group = dots.current;
    if (!group?.contains(document.activeElement)) return;
    group.querySelector<HTMLElement>('[aria-current="true"]')?.focus();
  }, [index]);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    swipe.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
    swiped.current = false;
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    const start = swipe.current;
    swipe.current = null;
    if (!start || start.id !== event.pointerId) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) <= Math.abs(dy)) return;
    swiped.current = true;
    // Finger moves left: the next template comes in from the right.
    onMove(dx < 0 ? 1 : -1);
  };

  return (
    <section aria-roledescription="carousel" aria-labelledby={headingId}>
      <div className="@container">
        <div
          data-testid="carousel-stage"
          className="relative overflow-hidden rounded-3xl bg-gradient-to-b from-stone-200/70 to-stone-100 select-none"
          style={{ height: STAGE_HEIGHT, perspective: '1200px', touchAction: 'pan-y' }}
          onPointerDown={onPointerDown}
          onPointerUp={onPointerUp}
          onPointerCancel={() => (swipe.current = null)}
        >
          {slides.map(({ index: at, offset }) => {
            const template = templates[at]!;
            const centre = offset === 0;
            const picture = templateImage(template, centre ? variant : 0);
            return (
              <div
                key={template.id}
                // The side cards are decoration: the dots and buttons reach every template.
                aria-hidden={centre ? undefined : true}
                role={centre ? 'group' : undefined}
                aria-roledescription={centre ? 'slide' : undefined}
                aria-label={centre ? `Template ${at + 1} of ${count}: ${template.name}` : undefined}
                data-offset={offset}
                onClick={
                  centre
                    ? undefined
                    : () => {
                        if (swiped.current) {
                          swiped.current = false;
                          return;
                        }
                        onGoTo(at);
                      }
                }
                className={`absolute top-[25px] left-1/2 transition-[transform,opacity] duration-300 ease-out motion-reduce:transition-none ${
                  centre ? '' : 'cursor-pointer'
                }`}
                style={slideStyle(offset)}
              >
                <img
                  src={picture}
                  alt={centre ? `${template.name}: ${templateDescription(template, engine)}` : ''}
                  width={400}
                  height={450}
                  draggable={false}
                  loading={Math.abs(offset) <= 1 ? 'eager' : 'lazy'}
                  decoding="async"
                  className="block aspect-[400/450] h-auto w-full rounded-2xl bg-stone-200 object-cover shadow-xl ring-1 ring-black/5"
                />
              </div>
            );
          })}
          {count > 1 && (
            <>
              <button
                type="button"
                aria-label="Previous template"
                onClick={() => onMove(-1)}
                className={`${navButton} left-2 sm:left-3`}
              >
                <ChevronLeftIcon />
              </button>
              <button
                type="button"
                aria-label="Next template"
                onClick={() => onMove(1)}
                className={`${navButton} right-2 sm:right-3`}
              >
                <ChevronRightIcon />
              </button>
            </>
          )}
        </div>
      </div>

      <p
        aria-live="polite"
        aria-atomic="true"
        className="mt-4 text-center text-sm font-medium text-stone-700 tabular-nums"
      >
        <span>
          Template {count === 0 ? 0 : index + 1} of {count}
        </span>
        {active && <span className="sr-only">: {active.name}</span>}
      </p>

      {count > 1 && (
        <div
          ref={dots}
          role="group"
          aria-label="Jump to a template"
          className="mx-auto mt-2 flex flex-wrap justify-center"
        >
          {templates.map((template, at) => {
            const current = at === index;
            return (
              <button
                key={template.id}
                type="button"
                aria-label={`Template ${at + 1}: ${template.name}`}
                aria-current={current ? 'true' : undefined}
                tabIndex={current ? 0 : -1}
                onClick={() => onGoTo(at)}
                className="group grid size-6 place-items-center rounded-full"
              >
                <span
                  aria-hidden="true"
                  className={`block h-2 rounded-full transition-all duration-300 motion-reduce:transition-none ${
                    current ? 'w-4 bg-accent-600' : 'w-2 bg-stone-400 group-hover:bg-stone-600'
                  }`}
                />
              </button>
            );
          })}
        </div>
      )}
    </section>
  );
}
