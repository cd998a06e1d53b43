"use strict";
// The page's entry point: a classic script (the page names it in one <script src>) that
// loads the page's ES modules. main.js draws every screen from the URL's fragment.
import("/static/main.js").catch((e) => {
  document.getElementById("app").textContent = "The page could not load its scripts: " + e.message;
});
