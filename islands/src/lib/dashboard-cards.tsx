// The cards a dashboard list draws from the API's answer (Load More, a
// source): loaded with the first such answer, so the dashboard's first
// screen carries none of this code.
import type { Schemas } from "./api";
import { CircularCard, type CardLabels } from "./circular-card";
import { NewsCard } from "./news-card";

export default function DashboardCards(props: { circulars?: Schemas["Circular"][]; news?: Schemas["NewsItem"][]; labels?: CardLabels; busy: boolean }) {
  if (props.news)
    return (
      <div className="grid gap-4 md:grid-cols-2" aria-busy={props.busy}>
        {props.news.map((n) => (
          <NewsCard key={n.id} n={n} />
        ))}
      </div>
    );
  return (
    <div className="grid gap-4" aria-busy={props.busy}>
      {(props.circulars ?? []).map((c) => (
        <CircularCard key={c.id} c={c} labels={props.labels!} />
      ))}
    </div>
  );
}
