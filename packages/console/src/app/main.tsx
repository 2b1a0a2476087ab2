import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App';
import { AgentError, PlatformError } from '../protocol';
import { askOpenTabs } from './tab-session';
import { consoleTheme, readableColorVariables } from './theme';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      refetchOnWindowFocus: false,
      // Client errors (forbidden, not found, invalid filter) do not get better by retrying.
      retry: (count, error) =>
        !(
          (error instanceof AgentError || error instanceof PlatformError) &&
          error.status >= 400 &&
          error.status < 500
        ) && count < 2,
    },
  },
});

// A new tab takes the session of an open one before its first render (no sign-in page flash).
void askOpenTabs().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      {/* The system's colour scheme unless the user picked one (account menu; kept in localStorage). */}
      <MantineProvider
        theme={consoleTheme}
        cssVariablesResolver={readableColorVariables}
        defaultColorScheme="auto"
      >
        <Notifications position="top-right" />
        <QueryClientProvider client={queryClient}>
          <BrowserRouter basename={import.meta.env.BASE_URL.replace(/\/$/, '')}>
            <App />
          </BrowserRouter>
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  ),
);
