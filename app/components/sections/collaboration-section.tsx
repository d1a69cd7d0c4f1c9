import { usePageMessages } from "../../i18n/use-page-messages";
import { isIconName, SvgIcon } from "../ui/icons";

export function CollaborationSection() {
  const t = usePageMessages().home.collaboration;
  return (
    <section id="collaboration" className="section py-5" aria-labelledby="collaboration-title">
      <div className="container py-lg-4">
        <div className="section-intro-text">
          <h2 id="collaboration-title">{t.title}</h2>
          <p className="lead text-body-secondary">{t.lead}</p>
        </div>
        <ul className="row g-4 list-unstyled mt-2 mb-0">
          {t.features.map((feature) => (
            <li key={feature.id} className="col-sm-6 col-lg-4" data-reveal="">
              <div className="feature h-100">
                <span className="feature-icon">{isIconName(feature.id) ? <SvgIcon name={feature.id} /> : null}</span>
                <h3 className="h5 mt-3">{feature.title}</h3>
                <p className="text-body-secondary mb-0">{feature.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
