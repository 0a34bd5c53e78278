// Legal forms by jurisdiction: abbreviations and full local names of the ISO 20275 Entity Legal
// Forms (source: the GLEIF ELF code list, which lists for each ELF code the jurisdiction, the
// local name(s) and the abbreviation(s)). Written from that list's content for the
// jurisdictions our users and the sanctions lists meet most; the four-character ELF codes are
// left out because the matcher needs only the words. `family` says what kind of company the
// form makes (a name that differs only by family, "X AG" vs "X GmbH", is a different company);
// `null` where one abbreviation covers several kinds (Danish A/S vs Norwegian AS).
// Format: [jurisdictions, family, abbreviations separated by |, full names separated by |].
// The Nordic share company is one form with a private and a public variant (AS/ASA, Oy/Oyj,
// AB/AB publ): companies move between them when they list, so both are family 'nordic-share'.
export type FormFamily = 'stock' | 'limited' | 'nordic-share' | 'partnership' | 'cooperative' | 'other' | null;

export const ELF_FORMS: [string, FormFamily, string, string][] = [
  // Nordics
  ['NO', 'nordic-share', 'AS', 'Aksjeselskap|Aksjeselskapet'],
  ['NO', 'nordic-share', 'ASA', 'Allmennaksjeselskap|Allmennaksjeselskapet'],
  ['NO', 'other', 'NUF', 'Norskregistrert utenlandsk foretak'],
  ['NO', 'partnership', 'ANS|DA|KS', 'Ansvarlig selskap|Selskap med delt ansvar|Kommandittselskap'],
  ['NO', 'other', 'ENK|IKS|SA|BA', 'Enkeltpersonforetak|Interkommunalt selskap|Samvirkeforetak'],
  ['DK', 'stock', 'A/S', 'Aktieselskab|Aktieselskabet'],
  ['DK', 'limited', 'ApS|IVS', 'Anpartsselskab|Anpartsselskabet|Iværksætterselskab'],
  ['DK', 'cooperative', 'AMBA|FMBA|SMBA', 'Andelsselskab med begrænset ansvar|Forening med begrænset ansvar'],
  ['DK', 'partnership', 'I/S|K/S|P/S', 'Interessentskab|Kommanditselskab|Partnerselskab'],
  ['SE', null, 'AB', 'Aktiebolag|Aktiebolaget'],
  ['SE', 'nordic-share', 'AB publ|publ', 'Publikt aktiebolag'],
  ['SE', 'partnership', 'HB|KB', 'Handelsbolag|Kommanditbolag'],
  ['SE', 'cooperative', 'ek för|ek. för.', 'Ekonomisk förening'],
  ['FI', 'nordic-share', 'Oy|Ab', 'Osakeyhtiö|Aktiebolag'],
  ['FI', 'nordic-share', 'Oyj|Abp', 'Julkinen osakeyhtiö|Publikt aktiebolag'],
  ['FI', 'partnership', 'Ay|Ky|Tmi', 'Avoin yhtiö|Kommandiittiyhtiö|Toiminimi'],
  ['FI', 'cooperative', 'Osk', 'Osuuskunta'],
  ['IS', 'limited', 'ehf|ohf', 'Einkahlutafélag|Opinbert hlutafélag'],
  ['IS', 'stock', 'hf', 'Hlutafélag'],
  // German-speaking
  ['DE|AT|CH|LI', 'stock', 'AG', 'Aktiengesellschaft'],
  ['DE|AT|CH|LI', 'limited', 'GmbH|mbH|gGmbH|UG', 'Gesellschaft mit beschränkter Haftung|Unternehmergesellschaft'],
  [
    'DE|AT|CH',
    'partnership',
    'KG|OHG|GbR|GmbH & Co KG|GmbH & Co. KG|KGaA',
    'Kommanditgesellschaft|Offene Handelsgesellschaft|Gesellschaft bürgerlichen Rechts|Kommanditgesellschaft auf Aktien',
  ],
  ['DE|AT|CH', 'other', 'eV|e.V.', 'eingetragener Verein'],
  ['DE|AT|CH', 'cooperative', 'eG', 'eingetragene Genossenschaft'],
  // English-speaking
  [
    'GB|IE',
    'limited',
    'Ltd|Limited',
    'Private limited company|Private company limited by shares|Company limited by guarantee',
  ],
  ['GB|IE', 'stock', 'PLC', 'Public limited company'],
  ['GB|US', 'partnership', 'LLP|LP', 'Limited liability partnership|Limited partnership'],
  ['US', 'limited', 'LLC|L.L.C.', 'Limited liability company'],
  ['US', null, 'Inc|Corp|Co', 'Incorporated|Corporation|Company'],
  [
    'AU|SG|MY|IN',
    'limited',
    'Pty Ltd|Pty|Pte Ltd|Pte|Sdn Bhd|Pvt Ltd|Pvt',
    'Proprietary limited|Private limited|Sendirian Berhad',
  ],
  ['MY', 'stock', 'Bhd', 'Berhad'],
  ['AE', 'limited', 'FZE|FZCO|FZC|FZ LLC|DMCC', 'Free zone establishment|Free zone company'],
  // Russia, Ukraine, Belarus, Kazakhstan (transliterated and English)
  ['RU|BY|KZ', 'limited', 'OOO|LLC', 'Obshchestvo s ogranichennoy otvetstvennostyu|Limited liability company'],
  [
    'RU|KZ',
    'stock',
    'AO|JSC|PAO|PJSC|OAO|OJSC|ZAO|CJSC|NAO',
    'Aktsionernoe obshchestvo|Publichnoe aktsionernoe obshchestvo|Otkrytoe aktsionernoe obshchestvo|Zakrytoe aktsionernoe obshchestvo|Nepublichnoe aktsionernoe obshchestvo|Joint stock company|Public joint stock company|Open joint stock company|Closed joint stock company|Non-public joint stock company',
  ],
  [
    'RU',
    'other',
    'FGUP|GUP|MUP|ANO|NKO',
    'Federalnoe gosudarstvennoe unitarnoe predpriyatie|Gosudarstvennoe unitarnoe predpriyatie|Munitsipalnoe unitarnoe predpriyatie|Avtonomnaya nekommercheskaya organizatsiya',
  ],
  ['UA', 'limited', 'TOV|TzOV', 'Tovarystvo z obmezhenoiu vidpovidalnistiu|Tovaristvo z obmezhenoyu vidpovidalnistyu'],
  [
    'UA',
    'stock',
    'AT|PrAT|PAT|PJSC|VAT|ZAT',
    'Aktsionerne tovarystvo|Pryvatne aktsionerne tovarystvo|Publichne aktsionerne tovarystvo|Aktsionerne tovaristvo|Privatne aktsionerne tovaristvo|Publichne aktsionerne tovaristvo',
  ],
  ['BY', 'limited', 'TAA', 'Tavarystva z abmezhavanay adkaznastsyu'],
  // Romance languages
  ['FR|BE|LU|CH', 'stock', 'SA|SCA', 'Société anonyme|Société en commandite par actions'],
  [
    'FR|BE|LU',
    'limited',
    'SARL|EURL|SAS|SASU|SPRL|SRL',
    'Société à responsabilité limitée|Entreprise unipersonnelle à responsabilité limitée|Société par actions simplifiée|Société privée à responsabilité limitée',
  ],
  ['FR', 'partnership', 'SNC|SCS', 'Société en nom collectif|Société en commandite simple'],
  ['IT', 'stock', 'SpA|S.p.A.', 'Società per azioni'],
  [
    'IT',
    'limited',
    'Srl|S.r.l.|Srls',
    'Società a responsabilità limitata|Società a responsabilità limitata semplificata',
  ],
  ['IT', 'partnership', 'Snc|Sas', 'Società in nome collettivo|Società in accomandita semplice'],
  ['ES', 'stock', 'SA', 'Sociedad anónima'],
  [
    'ES',
    'limited',
    'SL|SRL|SLU',
    'Sociedad limitada|Sociedad de responsabilidad limitada|Sociedad limitada unipersonal',
  ],
  ['PT|BR', 'stock', 'SA', 'Sociedade anónima|Sociedade anônima'],
  ['PT|BR', 'limited', 'Lda|Ltda', 'Sociedade por quotas|Sociedade limitada'],
  ['MX', 'stock', 'SA de CV|SAB de CV', 'Sociedad anónima de capital variable'],
  ['RO|MD', 'limited', 'SRL', 'Societate cu răspundere limitată|Societatea cu răspundere limitată'],
  ['RO', 'stock', 'SA', 'Societate pe acțiuni|Societatea pe acțiuni'],
  // Benelux
  ['NL|BE', 'limited', 'BV|BVBA', 'Besloten vennootschap|Besloten vennootschap met beperkte aansprakelijkheid'],
  ['NL|BE', 'stock', 'NV', 'Naamloze vennootschap'],
  ['NL', 'partnership', 'VOF|CV', 'Vennootschap onder firma|Commanditaire vennootschap'],
  // Central and Eastern Europe
  ['PL', 'limited', 'Sp. z o.o.|sp zoo', 'Spółka z ograniczoną odpowiedzialnością'],
  ['PL', 'stock', 'SA|S.A.', 'Spółka akcyjna'],
  ['PL', 'partnership', 'Sp.j.|Sp.k.', 'Spółka jawna|Spółka komandytowa'],
  ['CZ|SK', 'limited', 's.r.o.|spol. s r.o.', 'Společnost s ručením omezeným|Spoločnosť s ručením obmedzeným'],
  ['CZ|SK', 'stock', 'a.s.', 'Akciová společnost|Akciová spoločnosť'],
  ['HU', 'limited', 'Kft', 'Korlátolt felelősségű társaság'],
  ['HU', 'stock', 'Zrt|Nyrt|Rt', 'Zártkörűen működő részvénytársaság|Nyilvánosan működő részvénytársaság'],
  ['RS|HR|SI|BA|ME', 'limited', 'd.o.o.|doo', 'Društvo s ograničenom odgovornošću|Društvo z omejeno odgovornostjo'],
  [
    'RS|HR|SI|BA|ME|BG',
    'stock',
    'd.d.|a.d.|AD',
    'Dioničko društvo|Akcionarsko društvo|Delniška družba|Aktsionerno druzhestvo',
  ],
  ['BG', 'limited', 'OOD|EOOD', 'Druzhestvo s ogranichena otgovornost|Ednolichno druzhestvo s ogranichena otgovornost'],
  ['EE|LV|LT', 'limited', 'OÜ|SIA|UAB', 'Osaühing|Sabiedrība ar ierobežotu atbildību|Uždaroji akcinė bendrovė'],
  ['EE|LV|LT', 'stock', 'AS|AB', 'Aktsiaselts|Akciju sabiedrība|Akcinė bendrovė'],
  ['GR|CY', 'stock', 'AE|A.E.', 'Anonymi Etaireia'],
  ['TR', 'stock', 'AS|A.Ş.', 'Anonim Şirketi'],
  ['TR', 'limited', 'Ltd Şti|Ltd. Şti.', 'Limited Şirketi'],
  // Asia
  ['CN|HK|TW', 'limited', 'Co Ltd|Co., Ltd.', 'Company limited|Youxian gongsi|Youxian zeren gongsi'],
  ['JP', 'stock', 'KK|K.K.', 'Kabushiki kaisha|Kabushiki gaisha'],
  ['JP', 'limited', 'GK|YK', 'Godo kaisha|Yugen kaisha'],
  ['KR', 'stock', '', 'Jusikhoesa|Chusik hoesa'],
  ['IR', 'stock', 'PJS', 'Sherkat-e sahami-ye am|Sherkat sahami am'],
  ['IN', 'stock', 'Ltd', 'Public limited company'],
];
