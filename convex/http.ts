import { httpRouter } from "convex/server";
import { auth } from "./auth";
import { addAccountRoutes } from "./http-routes/accounts";
import { addMarketplaceRoutes } from "./http-routes/marketplace";
import { addApiFallback } from "./model/http-api";

const http = httpRouter();

auth.addHttpRoutes(http);
addAccountRoutes(http);
addMarketplaceRoutes(http);
addApiFallback(http);

export default http;
