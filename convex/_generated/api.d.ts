/* eslint-disable */
/**
 * Generated `api` utility.
 *
 * THIS CODE IS AUTOMATICALLY GENERATED.
 *
 * To regenerate, run `npx convex dev`.
 * @module
 */

import type {
  ApiFromModules,
  FilterApi,
  FunctionReference,
} from "convex/server";
import type * as admin from "../admin.js";
import type * as adminAccounts from "../adminAccounts.js";
import type * as adminBookings from "../adminBookings.js";
import type * as adminReports from "../adminReports.js";
import type * as adminReviews from "../adminReviews.js";
import type * as auth from "../auth.js";
import type * as bills from "../bills.js";
import type * as bookings from "../bookings.js";
import type * as cash from "../cash.js";
import type * as catalog from "../catalog.js";
import type * as chat from "../chat.js";
import type * as constants from "../constants.js";
import type * as contact from "../contact.js";
import type * as crons from "../crons.js";
import type * as delivery from "../delivery.js";
import type * as devices from "../devices.js";
import type * as earnings from "../earnings.js";
import type * as files from "../files.js";
import type * as functions from "../functions.js";
import type * as http from "../http.js";
import type * as httpRoutes_accounts from "../httpRoutes/accounts.js";
import type * as httpRoutes_marketplace from "../httpRoutes/marketplace.js";
import type * as httpRoutes_transport from "../httpRoutes/transport.js";
import type * as httpRoutes_uploads from "../httpRoutes/uploads.js";
import type * as localNames from "../localNames.js";
import type * as locations from "../locations.js";
import type * as model_accountCodes from "../model/accountCodes.js";
import type * as model_accountData from "../model/accountData.js";
import type * as model_adminBookings from "../model/adminBookings.js";
import type * as model_adminCredentials from "../model/adminCredentials.js";
import type * as model_authGuard from "../model/authGuard.js";
import type * as model_bill from "../model/bill.js";
import type * as model_bookings from "../model/bookings.js";
import type * as model_cash from "../model/cash.js";
import type * as model_catalog from "../model/catalog.js";
import type * as model_catalogData from "../model/catalogData.js";
import type * as model_chat from "../model/chat.js";
import type * as model_delivery_accountMessages from "../model/delivery/accountMessages.js";
import type * as model_delivery_outbound from "../model/delivery/outbound.js";
import type * as model_delivery_queue from "../model/delivery/queue.js";
import type * as model_delivery_senders from "../model/delivery/senders.js";
import type * as model_demoData from "../model/demoData.js";
import type * as model_deployment from "../model/deployment.js";
import type * as model_devices from "../model/devices.js";
import type * as model_earnings from "../model/earnings.js";
import type * as model_errors from "../model/errors.js";
import type * as model_files from "../model/files.js";
import type * as model_geo from "../model/geo.js";
import type * as model_heldReviews from "../model/heldReviews.js";
import type * as model_jobConfirmation from "../model/jobConfirmation.js";
import type * as model_jobStart from "../model/jobStart.js";
import type * as model_ledger from "../model/ledger.js";
import type * as model_locations from "../model/locations.js";
import type * as model_mapMarkers from "../model/mapMarkers.js";
import type * as model_noShows from "../model/noShows.js";
import type * as model_notifications from "../model/notifications.js";
import type * as model_passwordChange from "../model/passwordChange.js";
import type * as model_passwordReset from "../model/passwordReset.js";
import type * as model_passwords from "../model/passwords.js";
import type * as model_payouts from "../model/payouts.js";
import type * as model_presence from "../model/presence.js";
import type * as model_professionalDocuments from "../model/professionalDocuments.js";
import type * as model_professionalOfUser from "../model/professionalOfUser.js";
import type * as model_professionals from "../model/professionals.js";
import type * as model_push from "../model/push.js";
import type * as model_pushEndpoint from "../model/pushEndpoint.js";
import type * as model_rateLimit from "../model/rateLimit.js";
import type * as model_receiptView from "../model/receiptView.js";
import type * as model_receipts from "../model/receipts.js";
import type * as model_reports from "../model/reports.js";
import type * as model_reviews from "../model/reviews.js";
import type * as model_serviceCards from "../model/serviceCards.js";
import type * as model_serviceSearch from "../model/serviceSearch.js";
import type * as model_sessions from "../model/sessions.js";
import type * as model_settings from "../model/settings.js";
import type * as model_signUpDrafts from "../model/signUpDrafts.js";
import type * as model_slots from "../model/slots.js";
import type * as model_startCodes from "../model/startCodes.js";
import type * as model_suspension from "../model/suspension.js";
import type * as model_users from "../model/users.js";
import type * as model_wallets_attempts from "../model/wallets/attempts.js";
import type * as model_wallets_gateways from "../model/wallets/gateways.js";
import type * as model_webPush from "../model/webPush.js";
import type * as noShows from "../noShows.js";
import type * as notifications from "../notifications.js";
import type * as passwordChange from "../passwordChange.js";
import type * as passwordReset from "../passwordReset.js";
import type * as payouts from "../payouts.js";
import type * as presence from "../presence.js";
import type * as professionals from "../professionals.js";
import type * as push from "../push.js";
import type * as receipts from "../receipts.js";
import type * as reports from "../reports.js";
import type * as reviews from "../reviews.js";
import type * as rules_accountCodes from "../rules/accountCodes.js";
import type * as rules_address from "../rules/address.js";
import type * as rules_bill from "../rules/bill.js";
import type * as rules_bookability from "../rules/bookability.js";
import type * as rules_bookingFields from "../rules/bookingFields.js";
import type * as rules_bookingLifecycle from "../rules/bookingLifecycle.js";
import type * as rules_chat from "../rules/chat.js";
import type * as rules_contact from "../rules/contact.js";
import type * as rules_csv from "../rules/csv.js";
import type * as rules_documents from "../rules/documents.js";
import type * as rules_earnings from "../rules/earnings.js";
import type * as rules_eta from "../rules/eta.js";
import type * as rules_ledger from "../rules/ledger.js";
import type * as rules_limits from "../rules/limits.js";
import type * as rules_moderation from "../rules/moderation.js";
import type * as rules_money from "../rules/money.js";
import type * as rules_noShow from "../rules/noShow.js";
import type * as rules_notificationText from "../rules/notificationText.js";
import type * as rules_payouts from "../rules/payouts.js";
import type * as rules_pin from "../rules/pin.js";
import type * as rules_profile from "../rules/profile.js";
import type * as rules_receipts from "../rules/receipts.js";
import type * as rules_schedule from "../rules/schedule.js";
import type * as rules_searchRank from "../rules/searchRank.js";
import type * as rules_settings from "../rules/settings.js";
import type * as rules_signUpWork from "../rules/signUpWork.js";
import type * as rules_startCode from "../rules/startCode.js";
import type * as rules_userAgent from "../rules/userAgent.js";
import type * as rules_wallets from "../rules/wallets.js";
import type * as seed from "../seed.js";
import type * as settings from "../settings.js";
import type * as signIns from "../signIns.js";
import type * as signUpDrafts from "../signUpDrafts.js";
import type * as users from "../users.js";
import type * as validators from "../validators.js";
import type * as wallets from "../wallets.js";

/**
 * A utility for referencing Convex functions in your app's API.
 *
 * Usage:
 * ```js
 * const myFunctionReference = api.myModule.myFunction;
 * ```
 */
declare const fullApi: ApiFromModules<{
  admin: typeof admin;
  adminAccounts: typeof adminAccounts;
  adminBookings: typeof adminBookings;
  adminReports: typeof adminReports;
  adminReviews: typeof adminReviews;
  auth: typeof auth;
  bills: typeof bills;
  bookings: typeof bookings;
  cash: typeof cash;
  catalog: typeof catalog;
  chat: typeof chat;
  constants: typeof constants;
  contact: typeof contact;
  crons: typeof crons;
  delivery: typeof delivery;
  devices: typeof devices;
  earnings: typeof earnings;
  files: typeof files;
  functions: typeof functions;
  http: typeof http;
  "httpRoutes/accounts": typeof httpRoutes_accounts;
  "httpRoutes/marketplace": typeof httpRoutes_marketplace;
  "httpRoutes/transport": typeof httpRoutes_transport;
  "httpRoutes/uploads": typeof httpRoutes_uploads;
  localNames: typeof localNames;
  locations: typeof locations;
  "model/accountCodes": typeof model_accountCodes;
  "model/accountData": typeof model_accountData;
  "model/adminBookings": typeof model_adminBookings;
  "model/adminCredentials": typeof model_adminCredentials;
  "model/authGuard": typeof model_authGuard;
  "model/bill": typeof model_bill;
  "model/bookings": typeof model_bookings;
  "model/cash": typeof model_cash;
  "model/catalog": typeof model_catalog;
  "model/catalogData": typeof model_catalogData;
  "model/chat": typeof model_chat;
  "model/delivery/accountMessages": typeof model_delivery_accountMessages;
  "model/delivery/outbound": typeof model_delivery_outbound;
  "model/delivery/queue": typeof model_delivery_queue;
  "model/delivery/senders": typeof model_delivery_senders;
  "model/demoData": typeof model_demoData;
  "model/deployment": typeof model_deployment;
  "model/devices": typeof model_devices;
  "model/earnings": typeof model_earnings;
  "model/errors": typeof model_errors;
  "model/files": typeof model_files;
  "model/geo": typeof model_geo;
  "model/heldReviews": typeof model_heldReviews;
  "model/jobConfirmation": typeof model_jobConfirmation;
  "model/jobStart": typeof model_jobStart;
  "model/ledger": typeof model_ledger;
  "model/locations": typeof model_locations;
  "model/mapMarkers": typeof model_mapMarkers;
  "model/noShows": typeof model_noShows;
  "model/notifications": typeof model_notifications;
  "model/passwordChange": typeof model_passwordChange;
  "model/passwordReset": typeof model_passwordReset;
  "model/passwords": typeof model_passwords;
  "model/payouts": typeof model_payouts;
  "model/presence": typeof model_presence;
  "model/professionalDocuments": typeof model_professionalDocuments;
  "model/professionalOfUser": typeof model_professionalOfUser;
  "model/professionals": typeof model_professionals;
  "model/push": typeof model_push;
  "model/pushEndpoint": typeof model_pushEndpoint;
  "model/rateLimit": typeof model_rateLimit;
  "model/receiptView": typeof model_receiptView;
  "model/receipts": typeof model_receipts;
  "model/reports": typeof model_reports;
  "model/reviews": typeof model_reviews;
  "model/serviceCards": typeof model_serviceCards;
  "model/serviceSearch": typeof model_serviceSearch;
  "model/sessions": typeof model_sessions;
  "model/settings": typeof model_settings;
  "model/signUpDrafts": typeof model_signUpDrafts;
  "model/slots": typeof model_slots;
  "model/startCodes": typeof model_startCodes;
  "model/suspension": typeof model_suspension;
  "model/users": typeof model_users;
  "model/wallets/attempts": typeof model_wallets_attempts;
  "model/wallets/gateways": typeof model_wallets_gateways;
  "model/webPush": typeof model_webPush;
  noShows: typeof noShows;
  notifications: typeof notifications;
  passwordChange: typeof passwordChange;
  passwordReset: typeof passwordReset;
  payouts: typeof payouts;
  presence: typeof presence;
  professionals: typeof professionals;
  push: typeof push;
  receipts: typeof receipts;
  reports: typeof reports;
  reviews: typeof reviews;
  "rules/accountCodes": typeof rules_accountCodes;
  "rules/address": typeof rules_address;
  "rules/bill": typeof rules_bill;
  "rules/bookability": typeof rules_bookability;
  "rules/bookingFields": typeof rules_bookingFields;
  "rules/bookingLifecycle": typeof rules_bookingLifecycle;
  "rules/chat": typeof rules_chat;
  "rules/contact": typeof rules_contact;
  "rules/csv": typeof rules_csv;
  "rules/documents": typeof rules_documents;
  "rules/earnings": typeof rules_earnings;
  "rules/eta": typeof rules_eta;
  "rules/ledger": typeof rules_ledger;
  "rules/limits": typeof rules_limits;
  "rules/moderation": typeof rules_moderation;
  "rules/money": typeof rules_money;
  "rules/noShow": typeof rules_noShow;
  "rules/notificationText": typeof rules_notificationText;
  "rules/payouts": typeof rules_payouts;
  "rules/pin": typeof rules_pin;
  "rules/profile": typeof rules_profile;
  "rules/receipts": typeof rules_receipts;
  "rules/schedule": typeof rules_schedule;
  "rules/searchRank": typeof rules_searchRank;
  "rules/settings": typeof rules_settings;
  "rules/signUpWork": typeof rules_signUpWork;
  "rules/startCode": typeof rules_startCode;
  "rules/userAgent": typeof rules_userAgent;
  "rules/wallets": typeof rules_wallets;
  seed: typeof seed;
  settings: typeof settings;
  signIns: typeof signIns;
  signUpDrafts: typeof signUpDrafts;
  users: typeof users;
  validators: typeof validators;
  wallets: typeof wallets;
}>;
export declare const api: FilterApi<
  typeof fullApi,
  FunctionReference<any, "public">
>;
export declare const internal: FilterApi<
  typeof fullApi,
  FunctionReference<any, "internal">
>;
