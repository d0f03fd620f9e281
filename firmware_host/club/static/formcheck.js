// Shared by the director's server's pages with forms (duplicate.html, table.html, event.html), served by the
// dashboard as /static/formcheck.js beside style.css: what a page says of a form the browser kept back.
"use strict";
window.formcheck = (() => {
  // A form the browser keeps back (a number box holding 14 or a word, a required box empty) is never sent:
  // the browser fires "invalid" on each wrong box instead of "submit". `say` is then given "Not sent: " and
  // the first box, by its label, in the browser's own words, never the last answer's reason, which would
  // read as if about this form. Each page shows it where its answers go.
  function notSent(form, say) {
    let said = false;
    form.addEventListener("invalid", (ev) => {
      if (said) return;   // one submit, one answer: the first wrong box, the one the browser shows
      said = true;
      setTimeout(() => { said = false; }, 0);
      const box = ev.target;
      let name = box.name;
      if (box.labels && box.labels.length) {
        const label = box.labels[0].cloneNode(true);
        label.querySelectorAll("input, select, textarea").forEach((x) => x.remove());
        name = label.textContent.trim() || name;
      }
      say("Not sent: " + name + ": " + box.validationMessage);
    }, true);
  }
  return { notSent };
})();
