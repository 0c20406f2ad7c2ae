import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { notify } from "./model/notifications";
import { errorCode, insertAdmin, insertCustomer, insertProfessional, newTest } from "./test.setup";

async function setup() {
  const t = newTest();
  const customer = await insertCustomer(t);
  const other = await insertCustomer(t, "Gita Karki");
  for (const title of ["One", "Two", "Three"]) {
    await t.run((ctx) =>
      notify(ctx, { userId: customer.userId, kind: "test", title, body: `${title} body` }),
    );
  }
  const otherId = await t.run((ctx) =>
    notify(ctx, { userId: other.userId, kind: "test", title: "Theirs", body: "" }),
  );
  return { t, customer, other, otherId };
}

describe("notifications", () => {
  test("list: own notifications, newest first, paginated", async () => {
    const { customer } = await setup();
    const page = await customer.as.query(api.notifications.list, {
      paginationOpts: { numItems: 2, cursor: null },
    });
    expect(page.page.map((n) => n.title)).toEqual(["Three", "Two"]);
    expect(page.page[0]).toMatchObject({
      kind: "test",
      body: "Three body",
      read: false,
      readAt: null,
      bookingId: null,
    });
    const rest = await customer.as.query(api.notifications.list, {
      paginationOpts: { numItems: 5, cursor: page.continueCursor },
    });
    expect(rest.page.map((n) => n.title)).toEqual(["One"]);
  });

  test("unreadCount and markRead (one, then all)", async () => {
    const { customer, other } = await setup();
    expect(await customer.as.query(api.notifications.unreadCount, {})).toBe(3);
    const [newest] = (
      await customer.as.query(api.notifications.list, {
        paginationOpts: { numItems: 1, cursor: null },
      })
    ).page;
    await customer.as.mutation(api.notifications.markRead, { notificationId: newest._id });
    await customer.as.mutation(api.notifications.markRead, { notificationId: newest._id });
    expect(await customer.as.query(api.notifications.unreadCount, {})).toBe(2);
    await customer.as.mutation(api.notifications.markRead, {});
    expect(await customer.as.query(api.notifications.unreadCount, {})).toBe(0);
    expect(await other.as.query(api.notifications.unreadCount, {})).toBe(1);
  });

  test("professionals and admins have their own; nobody reads or marks another's", async () => {
    const { t, customer, otherId } = await setup();
    const pro = await insertProfessional(t);
    const admin = await insertAdmin(t);
    expect(await pro.as.query(api.notifications.unreadCount, {})).toBe(0);
    expect(
      (
        await admin.as.query(api.notifications.list, {
          paginationOpts: { numItems: 5, cursor: null },
        })
      ).page,
    ).toEqual([]);
    expect(
      await errorCode(
        customer.as.mutation(api.notifications.markRead, { notificationId: otherId }),
      ),
    ).toBe("NOT_FOUND");
    expect(
      await errorCode(
        t.query(api.notifications.list, { paginationOpts: { numItems: 5, cursor: null } }),
      ),
    ).toBe("UNAUTHENTICATED");
    expect(await errorCode(t.query(api.notifications.unreadCount, {}))).toBe("UNAUTHENTICATED");
    expect(await errorCode(t.mutation(api.notifications.markRead, {}))).toBe("UNAUTHENTICATED");
  });
});
