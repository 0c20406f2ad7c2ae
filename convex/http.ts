import { httpRouter } from "convex/server";
import { auth } from "./auth";
import { addAccountRoutes } from "./httpRoutes/accounts";
import { addMarketplaceRoutes } from "./httpRoutes/marketplace";
import { addUploadRoutes } from "./httpRoutes/uploads";
import { addApiFallback } from "./httpRoutes/transport";

const http = httpRouter();

auth.addHttpRoutes(http);
addAccountRoutes(http);
addMarketplaceRoutes(http);
addUploadRoutes(http);
addApiFallback(http);

export default http;
