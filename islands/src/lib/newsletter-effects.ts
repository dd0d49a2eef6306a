// What a newsletter signup does beyond its form: the toast, and the
// refresh of the cached subscribers list. The one place that binds the
// form to the page's shared toast region and query client.
export type Notice = { title: string; description?: string; variant?: "default" | "destructive" };

// subscribersKey is the query key of GET /api/newsletter/subscribers.
export const subscribersKey = ["/api/newsletter/subscribers"] as const;

export type NewsletterEffects = {
  notify: (n: Notice) => void;
  subscribed: () => void;
};
