/**
 * Model text as React elements: marked's lexer makes the token tree, and every token becomes an element
 * whose text is a text node. Raw HTML in the text stays text; a link keeps only an http(s) or mailto
 * address; an image becomes its alt text (the page loads nothing from elsewhere). Code blocks are
 * highlighted by lowlight, whose tree (hast) is drawn the same way: class names and text, never markup.
 */
import type { ReactNode } from "react";
import { Lexer, type Token, type Tokens } from "marked";
import { common, createLowlight } from "lowlight";

// lowlight's common grammars (some 35 languages, with their aliases: ts, js, py, sh, html, yml...)
const lowlight = createLowlight(common);

interface HastNode {
  type: string;
  value?: string;
  tagName?: string;
  properties?: { className?: string[] };
  children?: HastNode[];
}

function hast(nodes: HastNode[] | undefined): ReactNode[] {
  return (nodes ?? []).map((n, i) => {
    if (n.type === "text") return n.value ?? "";
    if (n.type === "element") return <span key={i} className={(n.properties?.className ?? []).join(" ")}>{hast(n.children)}</span>;
    return null;
  });
}

export function Code({ text, lang }: { text: string; lang?: string }) {
  const name = (lang ?? "").trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  const known = name && lowlight.registered(name);
  const tree = known ? (lowlight.highlight(name, text) as unknown as HastNode) : undefined;
  return (
    <pre className="code" tabIndex={0} aria-label={known ? `${name} code` : "code"}>
      <code className={known ? `hljs language-${name}` : "hljs"}>{tree ? hast(tree.children) : text}</code>
    </pre>
  );
}

const safeHref = (href: string) => (/^(https?:|mailto:)/i.test(href) ? href : undefined);

function inline(tokens: Token[] | undefined): ReactNode[] {
  return (tokens ?? []).map((t, i) => {
    switch (t.type) {
      case "strong":
        return <strong key={i}>{inline((t as Tokens.Strong).tokens)}</strong>;
      case "em":
        return <em key={i}>{inline((t as Tokens.Em).tokens)}</em>;
      case "del":
        return <del key={i}>{inline((t as Tokens.Del).tokens)}</del>;
      case "codespan":
        return <code key={i}>{(t as Tokens.Codespan).text}</code>;
      case "br":
        return <br key={i} />;
      case "link": {
        const l = t as Tokens.Link;
        const href = safeHref(l.href);
        return href ? <a key={i} href={href} rel="noopener noreferrer nofollow" target="_blank">{inline(l.tokens)}</a> : <span key={i}>{inline(l.tokens)}</span>;
      }
      case "image":
        return <span key={i}>[{(t as Tokens.Image).text}]</span>;
      case "text": {
        const x = t as Tokens.Text;
        return x.tokens ? <span key={i}>{inline(x.tokens)}</span> : decode(x.text);
      }
      case "escape":
        return (t as Tokens.Escape).text;
      default:
        // html and anything unknown: shown as the text it is
        return t.raw;
    }
  });
}

/** marked escapes &, <, >, " and ' in text tokens; shown as text, they are turned back */
function decode(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e] ?? _m);
}

function block(tokens: Token[]): ReactNode[] {
  return tokens.map((t, i) => {
    switch (t.type) {
      case "space":
        return null;
      case "heading": {
        const h = t as Tokens.Heading;
        const Tag = `h${Math.min(6, h.depth + 2)}` as "h3";
        return <Tag key={i}>{inline(h.tokens)}</Tag>;
      }
      case "paragraph":
        return <p key={i}>{inline((t as Tokens.Paragraph).tokens)}</p>;
      case "code": {
        const c = t as Tokens.Code;
        return <Code key={i} text={c.text} lang={c.lang} />;
      }
      case "blockquote":
        return <blockquote key={i}>{block((t as Tokens.Blockquote).tokens)}</blockquote>;
      case "hr":
        return <hr key={i} />;
      case "list": {
        const l = t as Tokens.List;
        const items = l.items.map((it, j) => <li key={j}>{block(it.tokens)}</li>);
        return l.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
      }
      case "table": {
        const tb = t as Tokens.Table;
        return (
          <div key={i} className="table-wrap" tabIndex={0} role="region" aria-label="table">
            <table>
              <thead>
                <tr>{tb.header.map((c, j) => <th key={j}>{inline(c.tokens)}</th>)}</tr>
              </thead>
              <tbody>
                {tb.rows.map((r, j) => (
                  <tr key={j}>{r.map((c, k) => <td key={k}>{inline(c.tokens)}</td>)}</tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      }
      case "text": {
        const x = t as Tokens.Text;
        return <p key={i}>{x.tokens ? inline(x.tokens) : decode(x.text)}</p>;
      }
      default:
        return <p key={i}>{t.raw}</p>;
    }
  });
}

export function Markdown({ text }: { text: string }) {
  return <div className="md">{block(new Lexer({ gfm: true }).lex(text))}</div>;
}
