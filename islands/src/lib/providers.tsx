// withProviders gives an island the page's query client and shows a toast
// the previous page left; withQuery the query client alone.
import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect, type ComponentType } from "react";
import { queryClient } from "./query";
import { showPendingToast } from "./toast";

export function withProviders<P extends object>(Island: ComponentType<P>): ComponentType<P> {
  return function WithProviders(props: P) {
    useEffect(showPendingToast, []);
    return (
      <QueryClientProvider client={queryClient}>
        <Island {...props} />
      </QueryClientProvider>
    );
  };
}

// withQuery gives an island the page's query client alone (islands that
// show no toasts load no toast code).
export function withQuery<P extends object>(Island: ComponentType<P>): ComponentType<P> {
  return function WithQuery(props: P) {
    return (
      <QueryClientProvider client={queryClient}>
        <Island {...props} />
      </QueryClientProvider>
    );
  };
}
