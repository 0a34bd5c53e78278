// Denmark: the 98 kommuner (3-digit kommunekode, since the 2007 reform) in the 5 regioner
// (regionskode 1081–1085), as Danmarks Adresser's kommunekodeliste and Statistics Denmark's
// OMRÅDE codes write them. Christiansø (411) is not a kommune and is not listed. Lines:
// `#<region code> <region name>` then `<kommunekode> <name>`.
export const DK_MUNICIPALITIES = `
#1081 Region Nordjylland
773 Morsø
787 Thisted
810 Brønderslev
813 Frederikshavn
820 Vesthimmerland
825 Læsø
840 Rebild
846 Mariagerfjord
849 Jammerbugt
851 Aalborg
860 Hjørring
#1082 Region Midtjylland
615 Horsens
657 Herning
661 Holstebro
665 Lemvig
671 Struer
706 Syddjurs
707 Norddjurs
710 Favrskov
727 Odder
730 Randers
740 Silkeborg
741 Samsø
746 Skanderborg
751 Aarhus
756 Ikast-Brande
760 Ringkøbing-Skjern
766 Hedensted
779 Skive
791 Viborg
#1083 Region Syddanmark
410 Middelfart
420 Assens
430 Faaborg-Midtfyn
440 Kerteminde
450 Nyborg
461 Odense
479 Svendborg
480 Nordfyn
482 Langeland
492 Ærø
510 Haderslev
530 Billund
540 Sønderborg
550 Tønder
561 Esbjerg
563 Fanø
573 Varde
575 Vejen
580 Aabenraa
607 Fredericia
621 Kolding
630 Vejle
#1084 Region Hovedstaden
101 København
147 Frederiksberg
151 Ballerup
153 Brøndby
155 Dragør
157 Gentofte
159 Gladsaxe
161 Glostrup
163 Herlev
165 Albertslund
167 Hvidovre
169 Høje-Taastrup
173 Lyngby-Taarbæk
175 Rødovre
183 Ishøj
185 Tårnby
187 Vallensbæk
190 Furesø
201 Allerød
210 Fredensborg
217 Helsingør
219 Hillerød
223 Hørsholm
230 Rudersdal
240 Egedal
250 Frederikssund
260 Halsnæs
270 Gribskov
400 Bornholm
#1085 Region Sjælland
253 Greve
259 Køge
265 Roskilde
269 Solrød
306 Odsherred
316 Holbæk
320 Faxe
326 Kalundborg
329 Ringsted
330 Slagelse
336 Stevns
340 Sorø
350 Lejre
360 Lolland
370 Næstved
376 Guldborgsund
390 Vordingborg
`;
