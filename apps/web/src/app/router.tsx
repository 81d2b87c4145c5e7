import { redirect, type RouteObject } from 'react-router';
import { AppShell } from './layout/AppShell';
import { PageLoader } from '../components/PageLoader';
import { RootErrorBoundary, RouteErrorBoundary } from '../components/RootErrorBoundary';
import { ProtectedRoute } from '../features/auth/ProtectedRoute';

/** The route table of the product spec; every page is its own lazily loaded chunk. */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: AppShell,
    ErrorBoundary: RootErrorBoundary,
    HydrateFallback: PageLoader,
    children: [
      {
        ErrorBoundary: RouteErrorBoundary,
        children: [
          { index: true, lazy: () => import('../routes/home') },
          { path: 'pricing', lazy: () => import('../routes/pricing') },
          { path: 'auth', lazy: () => import('../routes/auth') },
          {
            path: 'login',
            loader: ({ request }) => redirect(`/auth${new URL(request.url).search}`),
          },
          { path: 'demo', lazy: () => import('../routes/demo') },
          { path: 'old-demo', lazy: () => import('../routes/old-demo') },
          { path: 'test', lazy: () => import('../routes/auth-test') },
          { path: 'privacy', lazy: () => import('../routes/privacy') },
          { path: 'refunds', lazy: () => import('../routes/refunds') },
          // Public: an account being deleted has no sign-in left to follow it with.
          { path: 'account-deleted', lazy: () => import('../routes/account-deleted') },
          // Not in the spec's route table: it shows its own 'Please log in' state.
          { path: 'generate-trained', lazy: () => import('../routes/generate-trained') },
          {
            Component: ProtectedRoute,
            children: [
              { path: 'upload', lazy: () => import('../routes/upload') },
              { path: 'training/start', lazy: () => import('../routes/training-start') },
              { path: 'training/:sessionId', lazy: () => import('../routes/training-status') },
              { path: 'dashboard', lazy: () => import('../routes/dashboard') },
              { path: 'generate', lazy: () => import('../routes/generate') },
              { path: 'generate-simple', lazy: () => import('../routes/generate-simple') },
              {
                path: 'generate-trained-old',
                lazy: () => import('../routes/generate-trained-old'),
              },
              { path: 'results/:sessionId', lazy: () => import('../routes/results') },
              { path: 'gallery', lazy: () => import('../routes/gallery') },
              { path: 'credits', lazy: () => import('../routes/credits') },
              { path: 'payment', lazy: () => import('../routes/payment') },
              { path: 'billing', lazy: () => import('../routes/billing') },
              {
                path: 'billing/receipts/:id',
                lazy: () => import('../routes/billing-receipt'),
              },
              { path: 'settings', lazy: () => import('../routes/settings') },
              // Admins only: anyone else gets the not-found page (the API answers 404).
              { path: 'admin/fleet', lazy: () => import('../routes/admin-fleet') },
            ],
          },
          { path: '*', lazy: () => import('../routes/not-found') },
        ],
      },
    ],
  },
];
