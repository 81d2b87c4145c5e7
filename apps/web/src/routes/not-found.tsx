export { NotFoundPage as Component } from '../components/NotFoundPage';
