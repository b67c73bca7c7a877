// The printed pages' Print button (bot/web/templates/print_base.html): shown only
// where a script runs; Ctrl+P prints the same page without it.
const button = document.getElementById("print-now");
if (button) {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
}
