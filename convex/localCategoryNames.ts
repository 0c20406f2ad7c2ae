/*
 * Nepali names of the catalogue's categories, as plain values both sides import: the web app shows
 * them in Nepali, and the catalogue search (model/catalog.ts) matches them and their common
 * synonyms, so 'बिजुली' finds electricians and 'धारा' plumbers. Services' own names are in
 * localServiceNames.ts, which the landing page does not load.
 */

/** Per category slug (model/catalogData.ts): the Nepali name and words people search with. */
export const CATEGORY_NAMES_NE: Record<string, { name: string; synonyms: readonly string[] }> = {
  electrical: {
    name: "बिजुली मिस्त्री",
    synonyms: ["बिजुली", "बिजुलीमिस्त्री", "इलेक्ट्रिसियन", "वायरिङ", "बत्ती", "bijuli", "mistri"],
  },
  laundry: { name: "लुगा धुलाइ", synonyms: ["लुगा", "धुलाइ", "लन्ड्री", "ड्राइ क्लिन", "dhulai"] },
  carpentry: { name: "सिकर्मी", synonyms: ["सिकर्मी", "कार्पेन्टर", "काठ", "फर्निचर", "sikarmi"] },
  plumbing: { name: "प्लम्बर", synonyms: ["प्लम्बर", "धारा", "पाइप", "पानी", "ट्याङ्की", "dhara"] },
  "ac-fridge": { name: "एसी-फ्रिज", synonyms: ["एसी", "फ्रिज", "रेफ्रिजेरेटर", "एयर कन्डिसन"] },
  painting: { name: "रङरोगन", synonyms: ["रङ", "रङरोगन", "पेन्टर", "पेन्टिङ", "रंग"] },
  cctv: { name: "सीसीटीभी क्यामेरा जडान", synonyms: ["सीसीटीभी", "क्यामेरा", "सिसिटिभी"] },
  "tile-marble": { name: "टायल-मार्बल जडान", synonyms: ["टायल", "मार्बल", "ढुङ्गा"] },
  "aluminium-upvc": {
    name: "एल्मुनियम-यूपीभीसी डेकोरेटर",
    synonyms: ["एल्मुनियम", "यूपीभीसी", "झ्याल", "ढोका"],
  },
  "home-appliance": {
    name: "घरायसी उपकरण मर्मत",
    synonyms: ["उपकरण", "वासिङ मेसिन", "मिक्सर", "इन्डक्सन", "मर्मत"],
  },
  "water-purifier": { name: "पानी प्युरिफायर सेवा", synonyms: ["प्युरिफायर", "फिल्टर", "पानी"] },
  mason: { name: "डकर्मी", synonyms: ["डकर्मी", "मेसन", "इँटा", "पर्खाल", "dakarmi"] },
  solar: { name: "सोलार प्राविधिक", synonyms: ["सोलार", "सौर्य", "ब्याट्री", "इन्भर्टर"] },
  jyotish: { name: "ज्योतिष", synonyms: ["ज्योतिष", "ज्योतिषी", "चिना", "पण्डित"] },
};

/** Per category slug (model/catalogData.ts): the Nepali of its one-line description. */
export const CATEGORY_DESCRIPTIONS_NE: Record<string, string> = {
  electrical: "वायरिङ, जडान र बिजुलीको मर्मतसम्भार",
  laundry: "लुगा धुने, ड्राइ क्लिनिङ र इस्त्री, घरबाटै लैजाने",
  carpentry: "फर्निचर बनाउने, मर्मत र काठका फिटिङ",
  plumbing: "पाइप, धारा, ट्याङ्की र बाथरुमका फिटिङ",
  "ac-fridge": "एयर कन्डिसनर र फ्रिजको सर्भिस र मर्मत",
  painting: "भित्री, बाहिरी र वाटरप्रुफ रङरोगन",
  cctv: "सीसीटीभी क्यामेरा, डीभीआर जडान र मोबाइलमा हेर्ने सुविधा",
  "tile-marble": "भुइँ, भित्ता र छानामा टायल र मार्बल जडान",
  "aluminium-upvc": "एल्मुनियम र यूपीभीसीका झ्याल, ढोका र पार्टिसन",
  "home-appliance": "वासिङ मेसिन, टिभी, माइक्रोवेभ लगायतको मर्मत",
  "water-purifier": "आरओ र यूभी प्युरिफायर जडान, फिल्टर र मर्मत",
  mason: "इँटाको काम, प्लास्टर र साना निर्माण",
  solar: "सोलार प्यानल, वाटर हिटर र ब्याट्री प्रणाली",
  jyotish: "कुण्डली, मुहूर्त र पूजा परामर्श",
};
