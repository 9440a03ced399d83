/** A file change (a tool result's diff, or a permission question's preview) as unified hunks. */
import type { Diff } from "./api.js";

export function DiffView({ diff }: { diff: Diff }) {
  return (
    <figure className="diff">
      <figcaption>
        {diff.path} {diff.created ? "(new file) " : ""}
        <span className="added">+{diff.added}</span> <span className="removed">−{diff.removed}</span>
        {diff.truncated ? " (cut short)" : ""}
      </figcaption>
      <pre tabIndex={0} aria-label={`diff of ${diff.path}`}>
        {diff.hunks.map((h, i) => (
          <code key={i} className="hunk">
            <span className="hunk-head">{`@@ -${h.oldStart} +${h.newStart} @@`}</span>
            {h.lines.map((l, j) => (
              <span key={j} className={l.startsWith("+") ? "line add" : l.startsWith("-") ? "line del" : "line"}>
                {l}
              </span>
            ))}
          </code>
        ))}
      </pre>
    </figure>
  );
}
