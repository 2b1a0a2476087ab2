/**
 * "Skip to content": the first Tab stop of every signed-in page, shown when focused; it moves the
 * focus to the page's main region (without touching the address, which holds the view).
 */
import './skip-link.css';

export function SkipLink({ target }: { target: string }) {
  return (
    <a
      href={`#${target}`}
      className="skip-link"
      onClick={(event) => {
        const main = document.getElementById(target);
        if (!main) return;
        event.preventDefault();
        main.focus();
      }}
    >
      Skip to content
    </a>
  );
}
