// The newsletter signup island: the /newsletter page's form, the footer's
// (mounted by the shell on first use) and the dashboard's compact form,
// with the page's query client and toast region. Props come from the
// page (templates/newsletter.html, _partials/footer.html).
import { NewsletterForm, type NewsletterFormProps } from "../lib/newsletter";
import { withProviders } from "../lib/providers";

export default withProviders<NewsletterFormProps>(NewsletterForm);
