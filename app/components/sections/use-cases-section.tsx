import { usePageMessages } from "../../i18n/use-page-messages";
import { isIconName, SvgIcon } from "../ui/icons";

export function UseCasesSection() {
  const t = usePageMessages().home.useCases;
  return (
    <section id="use-cases" className="section py-5" aria-labelledby="use-cases-title">
      <div className="container py-lg-4">
        <div className="section-intro-text">
          <h2 id="use-cases-title">{t.title}</h2>
          <p className="lead text-body-secondary">{t.lead}</p>
        </div>
        <ul className="row g-4 list-unstyled mt-2 mb-0">
          {t.items.map((item) => (
            <li key={item.id} className="col-md-6 col-lg-4" data-reveal="">
              <article className="use-case h-100" aria-labelledby={`use-case-${item.id}`}>
                <div className="d-flex align-items-center gap-3 mb-3">
                  <span className="feature-icon">{isIconName(item.id) ? <SvgIcon name={item.id} /> : null}</span>
                  <div>
                    <h3 className="h5 mb-0" id={`use-case-${item.id}`}>
                      {item.title}
                    </h3>
                    <p className="small text-body-secondary mb-0">{item.audience}</p>
                  </div>
                </div>
                <p className="use-case-label">{t.exampleLabel}</p>
                <p className="mb-0">{item.example}</p>
              </article>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
