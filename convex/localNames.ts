/*
 * Nepali names of the catalogue, as plain values both sides import: the web app shows them in
 * Nepali, and the catalogue search (model/catalog.ts) matches them and their common synonyms, so
 * 'बिजुली' finds electricians and 'धारा' plumbers.
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

/** Per service name (model/catalogData.ts): its Nepali name. */
export const SERVICE_NAMES_NE: Record<string, string> = {};
