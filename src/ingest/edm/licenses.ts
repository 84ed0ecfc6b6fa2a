/**
 * Readable labels for the rights URIs of EDM records (edm:rights), for the
 * `license` of `view.item` (spec 2.4: `@resource`, `@img`, `@url` and the
 * label as text).
 *
 * The real packages write German labels: "Namensnennung – Nicht-kommerziell –
 * Weitergabe unter gleichen Bedingungen" for CC BY-NC-SA (4XUD..., where the
 * DDB's text has doubled spaces we do not copy), "Weltweit frei von bekannten
 * urheberrechtlichen Einschränkungen" for the Public Domain Mark (NF42...),
 * and link the German deed (`.../deed.de`). Their icons are on the DDB's own
 * server; we point at the Creative Commons buttons on licensebuttons.net
 * instead, and leave `@img` empty where there is no public button.
 * An unknown URI is shown as itself, so a license is never hidden.
 */

export interface License {
  resource: string;
  img: string;
  url: string;
  label: string;
}

const CC_ELEMENTS: Readonly<Record<string, string>> = {
  by: 'Namensnennung',
  sa: 'Weitergabe unter gleichen Bedingungen',
  nd: 'Keine Bearbeitungen',
  nc: 'Nicht-kommerziell',
};

const CC_LICENSE = /^creativecommons\.org\/licenses\/((?:by)(?:-nc)?(?:-sa|-nd)?)\/(\d\.\d)(?:\/[a-z]{2})?$/;
const CC_PUBLIC_DOMAIN = /^creativecommons\.org\/publicdomain\/(zero|mark)\/(1\.0)$/;

/** rightsstatements.org (vocab 1.0), Europeana's former rights pages, the DDB's own. */
const OTHER_LABELS: Readonly<Record<string, string>> = {
  'rightsstatements.org/vocab/InC/1.0': 'Urheberrechtsschutz',
  'rightsstatements.org/vocab/InC-OW-EU/1.0': 'Urheberrechtsschutz – Verwaistes Werk (EU)',
  'rightsstatements.org/vocab/InC-EDU/1.0': 'Urheberrechtsschutz – Nutzung zu Bildungszwecken erlaubt',
  'rightsstatements.org/vocab/InC-NC/1.0': 'Urheberrechtsschutz – Nicht-kommerzielle Nutzung erlaubt',
  'rightsstatements.org/vocab/InC-RUU/1.0': 'Urheberrechtsschutz – Rechteinhaber nicht ermittelbar',
  'rightsstatements.org/vocab/NoC-CR/1.0': 'Kein Urheberrechtsschutz – Vertragliche Beschränkungen',
  'rightsstatements.org/vocab/NoC-NC/1.0': 'Kein Urheberrechtsschutz – Nur nicht-kommerzielle Nutzung erlaubt',
  'rightsstatements.org/vocab/NoC-OKLR/1.0': 'Kein Urheberrechtsschutz – Andere rechtliche Beschränkungen',
  'rightsstatements.org/vocab/NoC-US/1.0': 'Kein Urheberrechtsschutz in den Vereinigten Staaten',
  'rightsstatements.org/vocab/CNE/1.0': 'Urheberrechtsschutz nicht bewertet',
  'rightsstatements.org/vocab/UND/1.0': 'Urheberrechtsschutz ungeklärt',
  'rightsstatements.org/vocab/NKC/1.0': 'Kein bekannter Urheberrechtsschutz',
  'www.europeana.eu/rights/rr-f': 'Rechte vorbehalten – Freier Zugang',
  'www.europeana.eu/rights/rr-p': 'Rechte vorbehalten – Bezahlter Zugang',
  'www.europeana.eu/rights/rr-r': 'Rechte vorbehalten – Eingeschränkter Zugang',
  'www.europeana.eu/rights/unknown': 'Unbekannt',
  'www.europeana.eu/rights/out-of-copyright-non-commercial': 'Gemeinfrei – Nicht-kommerzielle Nachnutzung',
  'www.europeana.eu/rights/orphan-work-eu': 'Verwaistes Werk (EU)',
  'www.deutsche-digitale-bibliothek.de/lizenzen/rv-fz': 'Rechte vorbehalten – Freier Zugang',
};

/** The URI without scheme, deed/legalcode page, query and trailing slash; hosts lowercased. */
function normalise(uri: string): string {
  const noScheme = uri
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/[?#].*$/, '');
  const slash = noScheme.indexOf('/');
  const host = (slash === -1 ? noScheme : noScheme.slice(0, slash)).toLowerCase();
  const path = slash === -1 ? '' : noScheme.slice(slash);
  return (host + path).replace(/\/(deed(\.[a-z-]+)?|legalcode(\.[a-z-]+)?)$/i, '').replace(/\/+$/, '');
}

/** A URI's page in German: Creative Commons deeds have one at deed.de. */
const germanDeed = (uri: string): string =>
  `${uri
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
    .replace(/\/(deed|legalcode)(\.[a-z-]+)?$/i, '')}/deed.de`;

export function licenseOf(uri: string): License {
  const resource = uri.trim();
  const key = normalise(resource);
  const cc = CC_LICENSE.exec(key);
  if (cc) {
    const [, code = '', version = ''] = cc;
    const label = code
      .split('-')
      .map((part) => CC_ELEMENTS[part] ?? part)
      .join(' – ');
    return { resource, img: `https://licensebuttons.net/l/${code}/${version}/88x31.png`, url: germanDeed(resource), label };
  }
  const pd = CC_PUBLIC_DOMAIN.exec(key);
  if (pd) {
    const [, kind = '', version = ''] = pd;
    const label =
      kind === 'mark' ? 'Weltweit frei von bekannten urheberrechtlichen Einschränkungen' : 'Keine Rechte vorbehalten – CC0 1.0 Universell';
    return { resource, img: `https://licensebuttons.net/p/${kind}/${version}/88x31.png`, url: germanDeed(resource), label };
  }
  const rs = Object.keys(OTHER_LABELS).find((k) => k.toLowerCase() === key.toLowerCase());
  if (rs !== undefined) return { resource, img: '', url: resource, label: OTHER_LABELS[rs] as string };
  return { resource, img: '', url: resource, label: resource };
}
