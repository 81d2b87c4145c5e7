import { DEMO_STYLES, templateById, type DemoStyle } from '@studioshot/templates';

/**
 * The demos' pictures: the public-domain portrait our template previews are rendered from, and
 * for each demo style the previews of its sample templates (real studio engine renders).
 */
export const DEMO_PORTRAIT = {
  src: '/demo/portrait.jpg',
  credit: 'Portrait: NASA astronaut Eileen Collins, public domain',
};

export interface DemoSample {
  src: string;
  templateName: string;
}

export { DEMO_STYLES };
export type { DemoStyle };

export function demoSamples(style: DemoStyle): DemoSample[] {
  return style.sample_templates.map((id) => {
    const template = templateById(id);
    if (!template) throw new Error(`unknown demo template ${id}`);
    return { src: template.imageUrl, templateName: template.name };
  });
}

/** The older marketing demo's three samples (spec: /old-demo), each a template preview. */
export const OLD_DEMO_SAMPLES = [
  { title: 'Professional Executive', templateId: 'prof_31' },
  { title: 'Creative Professional', templateId: 'prof_55' },
  { title: 'Corporate Headshot', templateId: 'prof_11' },
].map(({ title, templateId }) => {
  const template = templateById(templateId);
  if (!template) throw new Error(`unknown demo template ${templateId}`);
  return { title, src: template.imageUrl, templateName: template.name };
});
