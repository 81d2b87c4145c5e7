// The template studio's entry: the page component; the rest of this folder is its own.
export { TemplateStudio } from './TemplateStudio';
