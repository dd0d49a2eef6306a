// The shell's behaviour on every page, in plain TypeScript so that a page
// without a content island loads no React.
import { initTheme } from "./theme";
import { initHeaderSearch } from "./search";
import { initBodyLookup } from "./body-lookup";
import { initAuth } from "./auth";
import { initNewsletterFooter } from "./newsletter-footer";
import { initToastHotkey } from "./toast-hotkey";
import { initLanguageSwitch } from "./language";

initTheme();
initHeaderSearch();
initBodyLookup();
initAuth();
initNewsletterFooter();
initToastHotkey();
initLanguageSwitch();
