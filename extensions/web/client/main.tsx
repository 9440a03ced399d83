/** The web client's entry: the App into #root. */
import { App } from "./app.js";
import { render } from "./dom.js";

const root = document.getElementById("root");
if (root) render(<App />, root);
