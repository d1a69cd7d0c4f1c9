import { usePageMessages } from "../../i18n/use-page-messages";
import { SvgIcon } from "../ui/icons";

export function IntroSection() {
  const t = usePageMessages().home.intro;
  return (
    <section id="intro" className="section-intro" aria-labelledby="intro-title">
      <div className="container py-5">
        <div className="row align-items-center gx-4 gx-xl-5 gy-5 py-lg-4">
          <div className="col-lg-7">
            <p className="eyebrow">{t.eyebrow}</p>
            <h1 id="intro-title" className="display-title">
              {t.title}
            </h1>
            <p className="lead text-body-secondary mt-3 mb-4">{t.lead}</p>
            <div className="d-flex flex-wrap gap-3">
              <a className="btn btn-primary btn-lg" href="#contact">
                {t.cta}
                <SvgIcon name="arrowRight" size={20} className="ms-2" />
              </a>
              <a className="btn btn-outline-secondary btn-lg" href="#architecture">
                {t.secondaryCta}
              </a>
            </div>
            <div className="mt-5">
              <p className="small fw-semibold text-body-secondary mb-2" id="sources-label">
                {t.sourcesLabel}
              </p>
              <ul className="source-list" aria-labelledby="sources-label">
                {t.sources.map((source) => (
                  <li key={source}>{source}</li>
                ))}
              </ul>
            </div>
          </div>
          <div className="col-lg-5">
            <figure className="feed-card mb-0" aria-labelledby="feed-title">
              <figcaption className="feed-card-header">
                <span id="feed-title" className="fw-semibold">
                  {t.feed.title}
                </span>
                <span className="small text-body-secondary">{t.feed.note}</span>
              </figcaption>
              <ol className="list-unstyled mb-0">
                {t.feed.items.map((item) => (
                  <li key={item.title} className="feed-item" data-reveal="">
                    <div className="d-flex justify-content-between small mb-1">
                      <span className="feed-source">{item.source}</span>
                      <span className="text-body-secondary">{item.time}</span>
                    </div>
                    <p className="fw-semibold mb-2">{item.title}</p>
                    <div className="d-flex flex-wrap align-items-center gap-2 small">
                      {item.tags.map((tag) => (
                        <span key={tag} className="tag">
                          {tag}
                        </span>
                      ))}
                      <span className="text-body-secondary ms-auto">
                        {t.feed.deliveredTo}: <strong className="text-body">{item.to}</strong>
                      </span>
                    </div>
                  </li>
                ))}
              </ol>
            </figure>
          </div>
        </div>
      </div>
    </section>
  );
}
