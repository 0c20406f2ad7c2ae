/**
 * The insurance sponsor block (spec §1). The sponsor here is a placeholder company: replace the name
 * and link with the real sponsor's. `.example` is a reserved domain, so nothing real is linked by accident.
 */
export const SPONSOR = {
  name: "Suraksha Life Insurance",
  url: "https://suraksha-life.example/",
  promotion:
    "सुरक्षा लाइफ इन्स्योरेन्स — आफ्नो र परिवारको सुरक्षित भविष्यका लागि आजै जीवन बीमा गराऔं। कम प्रिमियममा बढी सुरक्षा, छिटो दाबी भुक्तानी र देशभर सेवा। थप जानकारीका लागि नजिकको शाखामा सम्पर्क गर्नुहोस्।",
} as const;
