/** The one function of js-yaml (4.x, no bundled types) the frontmatter parser uses. */
declare module "js-yaml" {
  export function load(text: string, opts?: { filename?: string; json?: boolean }): unknown;
}
