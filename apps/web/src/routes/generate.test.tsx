import type { User } from '@studioshot/contracts';
import { ZIdempotencyKeySchema } from '@studioshot/contracts';
import { TEMPLATES, templateById } from '@studioshot/templates';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generationResult, imageId, MODEL_ID } from '../features/generation/testing';
import { NEED_CREDITS_STATE } from '../features/payments/eligibility';
import { userModel } from '../features/training/testing';
import { renderApp, stubApi, TEST_USER } from '../test/app-harness';
import {
  captureDownloads,
  expectFailureAlert,
  expectModelPicker,
  expectProgressShown,
  failingOnce,
  expectFinishedBySameKey,
  GENERATE_TRAINED as GENERATE,
  holdCall,
  pageOpener,
  outOfCredits,
  queuedUntilFinished,
  startGenerating,
  SECOND_MODEL,
  SECOND_READY_MODEL,
  USER_MODELS as MODELS,
} from '../test/generation-pages';

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  // The first template's variant is drawn at random: variant 0 unless a test says otherwise.
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => vi.useRealTimers());

const READY_MODEL = userModel({
  id: MODEL_ID,
  name: 'Ada Portraits',
  status: 'completed',
  trigger_word: 'ohwx person',
});
const PREMIUM_ANNUAL: Partial<User> = {
  credits_balance: 10,
  plan_type: 'premium',
  subscription_interval: 'annual',
};

const studio = pageOpener('/generate', GENERATE, [READY_MODEL], {
  credits_balance: 10,
  gender: 'male',
});

const generateButton = () => screen.findByRole('button', { name: 'Generate AI Headshot' });
/** The selected template's name, from the details card. */
const selected = () => document.getElementById('template-title')?.textContent;
const counter = () => screen.getByText(/^Template \d+ of \d+$/).textContent;
const nameOf = (id: string) => templateById(id)!.name;
const press = (key: string, target: Element = document.body) => fireEvent.keyDown(target, { key });
/** Past the 300 ms carousel lock. */
const unlock = () => act(() => vi.advanceTimersByTimeAsync(300));

describe('/generate: who gets the studio', () => {
  it('signed out: to /auth, coming back to /generate after signing in', async () => {
    stubApi({});
    const router = renderApp('/generate');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(window.localStorage.getItem('authRedirect')).toContain('/generate');
  });

  it('says it is loading the trained models first', async () => {
    const { fetchMock } = studio();
    const call = holdCall(fetchMock, '/api/v1/upload/user-models');
    expect(
      await screen.findByRole('heading', { name: 'Loading your trained models...' }),
    ).toBeTruthy();
    await waitFor(() => expect(call.held()).toBe(true));
    call.answer(new Response(JSON.stringify({ models: [READY_MODEL] }), { status: 200 }));
    expect(await generateButton()).toBeTruthy();
  });

  // /upload itself may move a user on (a free user to /pricing): what counts is that /generate sent them there.
  const visits = (router: ReturnType<typeof studio>['router']) => {
    const paths: string[] = [];
    router.subscribe((state) => paths.push(state.location.pathname));
    return paths;
  };

  it('no completed model: to /upload', async () => {
    const { router } = studio(undefined, {
      [MODELS]: () => [200, { models: [userModel({ status: 'training' })] }],
    });
    const paths = visits(router);
    await waitFor(() => expect(paths.find((path) => path !== '/generate')).toBe('/upload'));
  });

  it('a model list that cannot be read: to /upload (api spec, error handling)', async () => {
    const { router } = studio(undefined, {
      [MODELS]: () => [500, { detail: 'boom', code: 'internal' }],
    });
    const paths = visits(router);
    await screen.findByRole('heading', { name: 'Loading your trained models...' });
    // The query retries a server fault twice, 1 s and 2 s apart.
    await act(() => vi.advanceTimersByTimeAsync(4000));
    await waitFor(() => expect(paths.find((path) => path !== '/generate')).toBe('/upload'));
  });

  it('one completed model: no model picker', async () => {
    studio();
    await generateButton();
    expect(screen.queryByLabelText('Trained model')).toBeNull();
  });

  it('links to the premium page by its name', async () => {
    studio();
    await generateButton();
    expect(screen.getByRole('link', { name: 'Premium Headshots' }).getAttribute('href')).toBe(
      '/generate-trained',
    );
  });

  it('several: a picker, preselecting the model the dashboard sent, and that model generates', async () => {
    const models = [
      READY_MODEL,
      SECOND_READY_MODEL,
      userModel({ id: '11111111-2222-4333-8444-555555555555', status: 'training' }),
    ];
    const { bodies } = studio(
      undefined,
      { [MODELS]: () => [200, { models }], [GENERATE]: () => [200, generationResult()] },
      { pathname: '/generate', state: { modelId: SECOND_MODEL } },
    );
    await expectModelPicker(SECOND_MODEL);
    fireEvent.click(await generateButton());
    await screen.findByRole('region', { name: 'Your AI Headshots' });
    expect(bodies()[0]!.model_id).toBe(SECOND_MODEL);
  });
});

describe('/generate: filters', () => {
  it('the Male/Female toggle defaults to the profile’s gender and swaps the templates', async () => {
    studio({ credits_balance: 10, gender: 'female' });
    await generateButton();
    const female = screen.getByRole('button', { name: 'Female' });
    expect(female.getAttribute('aria-pressed')).toBe('true');
    expect(selected()).toBe(nameOf('prof_11'));
    expect(counter()).toBe('Template 1 of 30');

    fireEvent.click(screen.getByRole('button', { name: 'Male' }));
    expect(screen.getByRole('button', { name: 'Male' }).getAttribute('aria-pressed')).toBe('true');
    expect(female.getAttribute('aria-pressed')).toBe('false');
    expect(selected()).toBe(nameOf('prof_1'));
    expect(counter()).toBe('Template 1 of 30');
  });

  it('the gender comes from the profile the page reads, not a stale stored user', async () => {
    studio(
      { credits_balance: 10, gender: null },
      {
        'GET /api/v1/users/profile': () => [
          200,
          { ...TEST_USER, credits_balance: 10, gender: 'female' },
        ],
      },
    );
    await generateButton();
    expect(screen.getByRole('button', { name: 'Female' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(selected()).toBe(nameOf('prof_11'));
  });

  it('category chips filter the carousel, All Styles first and chosen', async () => {
    studio();
    await generateButton();
    const chips = within(screen.getByRole('group', { name: 'Category' })).getAllByRole('button');
    expect(chips.map((c) => c.textContent)).toEqual([
      'All Styles',
      'Professional / Corporate',
      'Executive / Leadership',
      'Creative / Modern',
    ]);
    expect(chips[0]!.getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Executive / Leadership' }));
    expect(counter()).toBe('Template 1 of 10');
    expect(selected()).toBe(nameOf('prof_21'));
    const dots = within(screen.getByRole('group', { name: 'Jump to a template' })).getAllByRole(
      'button',
    );
    expect(dots.map((d) => d.getAttribute('aria-label'))).toEqual(
      [21, 22, 23, 24, 25, 26, 27, 28, 29, 30].map(
        (n, i) => `Template ${i + 1}: ${nameOf(`prof_${n}`)}`,
      ),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Creative / Modern' }));
    expect(selected()).toBe(nameOf('prof_41'));
    fireEvent.click(screen.getByRole('button', { name: 'Female' }));
    expect(selected()).toBe(nameOf('prof_51'));
    expect(counter()).toBe('Template 1 of 10');
  });
});

describe('/generate: the carousel', () => {
  it('Previous and Next wrap around, and Template X of N is announced', async () => {
    studio();
    await generateButton();
    const status = screen.getByText(/^Template \d+ of \d+$/).parentElement!;
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(counter()).toBe('Template 1 of 30');

    fireEvent.click(screen.getByRole('button', { name: 'Previous template' }));
    expect(counter()).toBe('Template 30 of 30');
    expect(selected()).toBe(nameOf('prof_50'));
    expect(status.textContent).toBe(`Template 30 of 30: ${nameOf('prof_50')}`);
    await unlock();
    fireEvent.click(screen.getByRole('button', { name: 'Next template' }));
    expect(counter()).toBe('Template 1 of 30');
    await unlock();
    fireEvent.click(screen.getByRole('button', { name: 'Next template' }));
    expect(counter()).toBe('Template 2 of 30');
    expect(selected()).toBe(nameOf('prof_2'));
  });

  it('moves are 300 ms apart: a second move sooner is ignored', async () => {
    studio();
    await generateButton();
    const next = screen.getByRole('button', { name: 'Next template' });
    fireEvent.click(next);
    fireEvent.click(next);
    fireEvent.click(next);
    expect(counter()).toBe('Template 2 of 30');
    await act(() => vi.advanceTimersByTimeAsync(150));
    fireEvent.click(next);
    expect(counter()).toBe('Template 2 of 30');
    await unlock();
    fireEvent.click(next);
    expect(counter()).toBe('Template 3 of 30');
  });

  it('dots jump to a template and mark the current one', async () => {
    studio();
    await generateButton();
    const dots = within(screen.getByRole('group', { name: 'Jump to a template' })).getAllByRole(
      'button',
    );
    expect(dots).toHaveLength(30);
    expect(dots[0]!.getAttribute('aria-current')).toBe('true');
    fireEvent.click(dots[12]!);
    expect(counter()).toBe('Template 13 of 30');
    expect(selected()).toBe(nameOf('prof_23'));
    expect(dots[12]!.getAttribute('aria-current')).toBe('true');
    expect(dots[0]!.getAttribute('aria-current')).toBeNull();
  });

  it('draws the centre card and two either side, across the wrap, as 400x450 images', async () => {
    studio();
    await generateButton();
    const stage = screen.getByTestId('carousel-stage');
    const cards = [...stage.querySelectorAll<HTMLElement>('[data-offset]')];
    expect(cards.map((c) => c.dataset.offset)).toEqual(['-2', '-1', '0', '1', '2']);
    const images = cards.map((c) => c.querySelector('img')!);
    expect(images.map((img) => img.getAttribute('src'))).toEqual([
      '/templates/prof_49.jpg',
      '/templates/prof_50.jpg',
      '/templates/prof_1.jpg',
      '/templates/prof_2.jpg',
      '/templates/prof_3.jpg',
    ]);
    for (const img of images) {
      expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['400', '450']);
    }
    // Only the centre card is exposed; the others are decoration.
    const centre = screen.getByRole('group', { name: `Template 1 of 30: ${nameOf('prof_1')}` });
    expect(centre.getAttribute('aria-roledescription')).toBe('slide');
    expect(cards[0]!.getAttribute('aria-hidden')).toBe('true');
    // A side card is a shortcut to its template.
    fireEvent.click(cards[3]!);
    expect(counter()).toBe('Template 2 of 30');
  });

  it('arrow keys move the carousel, but not while typing in a field', async () => {
    studio(PREMIUM_ANNUAL);
    await generateButton();
    press('ArrowRight');
    expect(counter()).toBe('Template 2 of 30');
    await unlock();
    press('ArrowLeft');
    expect(counter()).toBe('Template 1 of 30');
    await unlock();
    press('ArrowLeft');
    expect(counter()).toBe('Template 30 of 30');
    await unlock();
    press('ArrowRight', screen.getByLabelText('Premium: Custom Prompt'));
    expect(counter()).toBe('Template 30 of 30');
    // From a carousel control too.
    press('ArrowRight', screen.getByRole('button', { name: 'Next template' }));
    expect(counter()).toBe('Template 1 of 30');

    // The dots are one tab stop, and focus follows the current one.
    const dots = () =>
      within(screen.getByRole('group', { name: 'Jump to a template' })).getAllByRole('button');
    expect(dots().map((d) => d.tabIndex)).toEqual([0, ...Array<number>(29).fill(-1)]);
    dots()[0]!.focus();
    await unlock();
    press('ArrowRight', dots()[0]!);
    expect(counter()).toBe('Template 2 of 30');
    await waitFor(() => expect(document.activeElement).toBe(dots()[1]));
    expect(dots()[1]!.tabIndex).toBe(0);
  });

  it('a swipe on the stage moves it; a vertical drag does not', async () => {
    studio();
    await generateButton();
    const stage = screen.getByTestId('carousel-stage');
    const swipe = (from: [number, number], to: [number, number]) => {
      fireEvent.pointerDown(stage, {
        pointerId: 1,
        pointerType: 'touch',
        clientX: from[0],
        clientY: from[1],
      });
      fireEvent.pointerUp(stage, {
        pointerId: 1,
        pointerType: 'touch',
        clientX: to[0],
        clientY: to[1],
      });
    };
    swipe([300, 200], [120, 210]);
    expect(counter()).toBe('Template 2 of 30');
    await unlock();
    swipe([120, 200], [300, 190]);
    expect(counter()).toBe('Template 1 of 30');
    await unlock();
    swipe([200, 100], [230, 400]);
    expect(counter()).toBe('Template 1 of 30');
    swipe([200, 100], [215, 100]);
    expect(counter()).toBe('Template 1 of 30');
  });
});

describe('/generate: variants and the custom prompt', () => {
  it('the first template comes with a random variant, and each new template draws again', async () => {
    vi.mocked(Math.random).mockReturnValue(0.99);
    studio();
    await generateButton();
    const variants = within(
      screen.getByRole('group', { name: `Variants of ${nameOf('prof_1')}` }),
    ).getAllByRole('button');
    expect(variants.map((v) => v.textContent)).toEqual(['Classic', 'Warm', 'Close-up']);
    expect(variants.map((v) => v.getAttribute('aria-pressed'))).toEqual(['false', 'false', 'true']);
    const centreImage = () =>
      screen
        .getByRole('group', { name: /^Template \d+ of 30:/ })
        .querySelector('img')!
        .getAttribute('src');
    expect(centreImage()).toBe('/templates/prof_1-v2.jpg');

    vi.mocked(Math.random).mockReturnValue(0.4);
    fireEvent.click(screen.getByRole('button', { name: 'Next template' }));
    expect(
      within(screen.getByRole('group', { name: `Variants of ${nameOf('prof_2')}` }))
        .getByRole('button', { name: 'Morning Warm' })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    expect(centreImage()).toBe('/templates/prof_2-v1.jpg');
  });

  it('a chosen variant is the one generated', async () => {
    const { bodies } = studio(undefined, { [GENERATE]: () => [200, generationResult()] });
    await generateButton();
    const warm = screen.getByRole('button', { name: 'Warm' });
    fireEvent.click(warm);
    expect(warm.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Classic' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    fireEvent.click(await generateButton());
    await screen.findByRole('region', { name: 'Your AI Headshots' });
    expect(bodies()[0]).toMatchObject({ template_id: 'prof_1', variant: 1 });
  });

  it('a template with one variant shows no thumbnails', async () => {
    studio();
    await generateButton();
    fireEvent.click(screen.getByRole('button', { name: 'Previous template' }));
    expect(selected()).toBe(nameOf('prof_50'));
    expect(screen.queryByRole('group', { name: /^Variants of/ })).toBeNull();
    expect(screen.getByText('This template has one look, shown above.')).toBeTruthy();
  });

  it('premium annual: the custom prompt is sent, and choosing a template clears it', async () => {
    const { bodies } = studio(PREMIUM_ANNUAL, { [GENERATE]: () => [200, generationResult()] });
    await generateButton();
    const prompt = screen.getByLabelText('Premium: Custom Prompt') as HTMLTextAreaElement;
    fireEvent.change(prompt, { target: { value: 'person at a rooftop bar' } });
    expect(prompt.value).toBe('person at a rooftop bar');
    // Another variant keeps it.
    fireEvent.click(screen.getByRole('button', { name: 'Warm' }));
    expect(prompt.value).toBe('person at a rooftop bar');

    fireEvent.click(screen.getByRole('button', { name: 'Next template' }));
    expect(prompt.value).toBe('');
    fireEvent.change(prompt, { target: { value: 'person in a library' } });
    await unlock();
    fireEvent.click(screen.getByRole('button', { name: /^Template 5: / }));
    expect(prompt.value).toBe('');
    fireEvent.change(prompt, { target: { value: 'person in a library' } });
    fireEvent.click(screen.getByRole('button', { name: 'Creative / Modern' }));
    expect(prompt.value).toBe('');

    fireEvent.change(prompt, { target: { value: '  person in a library  ' } });
    fireEvent.click(await generateButton());
    await screen.findByRole('region', { name: 'Your AI Headshots' });
    expect(bodies()[0]).toMatchObject({ template_id: 'prof_41', prompt: 'person in a library' });
  });

  it('other plans: no custom prompt box, and none is sent', async () => {
    const { bodies } = studio(
      { credits_balance: 10, plan_type: 'premium', subscription_interval: 'monthly' },
      { [GENERATE]: () => [200, generationResult()] },
    );
    fireEvent.click(await generateButton());
    await screen.findByRole('region', { name: 'Your AI Headshots' });
    expect(screen.queryByLabelText('Premium: Custom Prompt')).toBeNull();
    expect(bodies()[0]!.prompt).toBeUndefined();
  });
});

describe('/generate: the debug prompt panel', () => {
  const panel = () => screen.queryByRole('region', { name: 'Debug: prompt' });

  it('hidden for an ordinary account, whatever its e-mail', async () => {
    studio({ credits_balance: 10, email: 'test@example.com' });
    await generateButton();
    expect(panel()).toBeNull();
  });

  it('an account with the debug flag sees the built prompt and may write its own', async () => {
    studio({ credits_balance: 10, is_debug: true });
    await generateButton();
    const debug = panel()!;
    expect(within(debug).getByText('Shown because your account has the debug flag.')).toBeTruthy();
    expect(within(debug).getByText(`prof_1 (${nameOf('prof_1')})`)).toBeTruthy();
    expect(within(debug).getByText(MODEL_ID)).toBeTruthy();
    const built = within(debug).getByTestId('debug-prompt');
    expect(built.textContent).toContain('headshot of ohwx person in a tailored navy suit');
    fireEvent.change(screen.getByLabelText('Premium: Custom Prompt'), {
      target: { value: 'a woman by the sea' },
    });
    expect(built.textContent).toBe('ohwx person by the sea');
    expect(within(debug).getByText('Custom prompt')).toBeTruthy();
  });

  it("the server's debug setting shows it to everyone, without the custom prompt", async () => {
    studio(
      { credits_balance: 10 },
      {
        'GET /health': () => [
          200,
          {
            status: 'ok',
            version: 'abcdef1234',
            database: 'up',
            redis: 'up',
            uptime_s: 12,
            debug: true,
          },
        ],
      },
    );
    await generateButton();
    const debug = await screen.findByRole('region', { name: 'Debug: prompt' });
    expect(within(debug).getByText("Shown because the server's debug setting is on.")).toBeTruthy();
    expect(screen.queryByLabelText('Premium: Custom Prompt')).toBeNull();
  });
});

describe('/generate: credits', () => {
  it('3 credits: Running Low on Credits, dismissible; the balance shows', async () => {
    studio({ credits_balance: 3 });
    await generateButton();
    expect(screen.getByRole('heading', { name: 'Running Low on Credits' })).toBeTruthy();
    expect(screen.getByText('3').parentElement?.textContent).toBe('3 credits');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('heading', { name: 'Running Low on Credits' })).toBeNull();
  });

  it('plenty: no banner', async () => {
    studio({ credits_balance: 12 });
    await generateButton();
    expect(screen.queryByRole('region', { name: 'Credit balance' })).toBeNull();
  });

  it('0 credits: Out of Credits!, and Generate goes to /pricing with reason credits', async () => {
    const { router, calls } = studio({ credits_balance: 0 });
    expect(await screen.findByRole('heading', { name: 'Out of Credits!' })).toBeTruthy();
    fireEvent.click(await generateButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    expect(router.state.location.state).toEqual(NEED_CREDITS_STATE);
    expect(calls(GENERATE)).toHaveLength(0);
  });

  it('the server says the balance cannot pay (402): to /pricing with reason credits', async () => {
    const { router } = studio(undefined, { [GENERATE]: outOfCredits });
    fireEvent.click(await generateButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    expect(router.state.location.state).toEqual(NEED_CREDITS_STATE);
  });
});

describe('/generate: generating', () => {
  it('live progress over /ws, then four headshots with Download each, then Generate More', async () => {
    const queued = queuedUntilFinished(GENERATE);
    const { bodies, calls } = studio(undefined, {
      ...queued.handlers,
      [`GET /images/generated/${imageId(1)}?token=t1`]: () => [200, 'jpeg'],
    });
    const { socket, bar } = await startGenerating(await generateButton());
    const body = bodies()[0]!;
    expect(body).toMatchObject({
      model_id: MODEL_ID,
      template_id: 'prof_1',
      variant: 0,
      num_images: 4,
      trigger_word: 'ohwx person',
    });
    expect(body.prompt).toBeUndefined();
    expect(ZIdempotencyKeySchema.safeParse(body.idempotency_key).success).toBe(true);

    await expectProgressShown(socket, bar, 45, 'Rendering headshot 2 of 4');
    // Enter while it runs starts nothing more.
    press('Enter');

    const results = await expectFinishedBySameKey(socket, queued, 'Your AI Headshots', bodies);
    const cards = within(results).getAllByRole('article');
    expect(cards).toHaveLength(4);
    expect((within(cards[0]!).getByRole('img') as HTMLImageElement).alt).toBe(
      `Headshot 1, ${nameOf('prof_1')} style`,
    );
    expect(await screen.findByText('Your AI headshots are ready!')).toBeTruthy();
    await waitFor(() => expect(document.activeElement?.id).toBe('results-title'));
    const profileReads = calls('GET /api/v1/users/profile').length;
    expect(profileReads).toBeGreaterThan(0);

    const clicked = captureDownloads();
    fireEvent.click(within(cards[1]!).getByRole('button', { name: 'Download Headshot 2' }));
    await waitFor(() => expect(clicked).toEqual(['headshot-7d1e2f3a-2.jpg']));

    fireEvent.click(screen.getByRole('button', { name: 'Generate More' }));
    expect(screen.queryByRole('region', { name: 'Your AI Headshots' })).toBeNull();
    expect(document.activeElement?.textContent).toBe('Choose your template');
    expect(((await generateButton()) as HTMLButtonElement).disabled).toBe(false);
  });

  it('Enter generates the template on show', async () => {
    const { bodies } = studio(undefined, { [GENERATE]: () => [200, generationResult()] });
    await generateButton();
    press('ArrowRight');
    press('Enter');
    await screen.findByRole('region', { name: 'Your AI Headshots' });
    expect(bodies()).toHaveLength(1);
    expect(bodies()[0]!.template_id).toBe('prof_2');
  });

  it('Enter on a control is that control’s, not Generate', async () => {
    const { calls } = studio(undefined, { [GENERATE]: () => [200, generationResult()] });
    await generateButton();
    press('Enter', screen.getByRole('button', { name: 'Warm' }));
    press('Enter', screen.getByRole('link', { name: 'Skip to content' }));
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(calls(GENERATE)).toHaveLength(0);
  });

  it('a failed generation: the reason, the credit back, and Try Again', async () => {
    studio(undefined, { [GENERATE]: failingOnce('No face was found in your model.') });
    fireEvent.click(await generateButton());
    const alert = await expectFailureAlert('No face was found in your model.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('region', { name: 'Your AI Headshots' })).toBeTruthy();
  });
});

describe('/generate: the template card speaks for the model’s engine', () => {
  const shown = async () => {
    await generateButton();
    const template = TEMPLATES.find((t) => t.name === selected())!;
    return { template, card: document.getElementById('template-title')!.parentElement! };
  };

  it('a studio model: only the backdrop, light, framing and finish', async () => {
    studio();
    const { template, card } = await shown();
    expect(within(card).getByText(template.description)).toBeTruthy();
    expect(within(card).queryByText(template.flux_description)).toBeNull();
  });

  it('a flux model: the attire its prompt asks for', async () => {
    const fluxModel = userModel({ ...READY_MODEL, model_type: 'flux' });
    pageOpener('/generate', GENERATE, [fluxModel], { credits_balance: 10, gender: 'male' })();
    const { template, card } = await shown();
    expect(within(card).getByText(template.flux_description)).toBeTruthy();
  });
});
