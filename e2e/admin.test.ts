import { expect, onTestFinished } from 'vitest';
import { saleNumberLabel } from '../src/shared/sales';
import { ApiSession, newAdmin, unique } from './support/api';
import {
  alertMessage,
  backgroundColour,
  bodyRows,
  cellText,
  columnTexts,
  eventually,
  expectPath,
  gone,
  rowWith,
  see,
  statusMessage,
  textOf,
} from './support/page';
import type { Story } from './support/story';
import { stories, storyTest } from './support/story';

function menu(story: Story, label: string) {
  return story.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true });
}

/** A store with one category and one supplier, and the admin who runs it. */
async function store(baseUrl: string) {
  const tag = unique();
  const { account, session } = await newAdmin(baseUrl);
  const category = await session.addCategory(`Office ${tag}`);
  const supplier = await session.addSupplier(`Paper Co ${tag}`);
  return { tag, account, session, category, supplier };
}

stories('admin', () => {
  storyTest(
    'admin adds, edits, searches and deletes categories, and one in use refuses deletion',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const { tag, account, session } = await store(baseUrl);
      const garden = await session.addCategory(`Garden ${tag}`);
      const supplier = await session.addSupplier(`Tools Inc ${tag}`);
      await session.addProduct({
        name: `Rake ${tag}`,
        price: 12,
        stock: 4,
        category: garden._id,
        supplier: supplier._id,
      });

      await story.signIn(account);
      await menu(story, 'Categories').click();
      await expectPath(page, '/admin-dashboard/categories');
      await see(page.getByRole('heading', { name: 'Category Management', level: 1 }));
      const table = page.getByRole('table', { name: 'Categories' });
      const addForm = page.getByRole('region', { name: 'Add New Category' });
      await see(rowWith(table, `Garden ${tag}`));

      for (const name of [`Kitchen ${tag}`, `Bathroom ${tag}`]) {
        await addForm.getByLabel('Name').fill(name);
        await addForm.getByLabel('Description').fill(`Everything for the ${name.toLowerCase()}`);
        await addForm.getByRole('button', { name: 'Add Category' }).click();
        await see(rowWith(table, name));
        await eventually(() => addForm.getByLabel('Name').inputValue()).toBe('');
      }
      await see(statusMessage(page, 'Category added.'));

      // A second category with the same name, in another case, is refused by the server.
      story.expectHttpError(409, '/api/category/add');
      await addForm.getByLabel('Name').fill(`KITCHEN ${tag}`);
      await addForm.getByRole('button', { name: 'Add Category' }).click();
      await see(alertMessage(addForm, 'already exists'));

      // Edit fills the side form; Save Changes renames the row.
      await table.getByRole('button', { name: `Edit Kitchen ${tag}` }).click();
      const editForm = page.getByRole('region', { name: 'Edit Category' });
      await see(editForm);
      expect(await editForm.getByLabel('Name').inputValue()).toBe(`Kitchen ${tag}`);
      expect(await editForm.getByLabel('Description').inputValue()).toBe(`Everything for the kitchen ${tag}`);
      await editForm.getByLabel('Name').fill(`Kitchenware ${tag}`);
      await editForm.getByRole('button', { name: 'Save Changes' }).click();
      await see(statusMessage(page, 'Category updated.'));
      await see(rowWith(table, `Kitchenware ${tag}`));
      await gone(rowWith(table, `Kitchen ${tag}`));
      await see(page.getByRole('region', { name: 'Add New Category' }));

      // Cancel leaves edit mode without saving.
      await table.getByRole('button', { name: `Edit Bathroom ${tag}` }).click();
      await editForm.getByLabel('Name').fill('Never saved');
      await editForm.getByRole('button', { name: 'Cancel' }).click();
      await see(addForm);
      await see(rowWith(table, `Bathroom ${tag}`));

      const search = page.getByPlaceholder('Search categories...');
      await search.fill(`kITCHENWARE ${tag}`);
      await eventually(() => columnTexts(table, 'Name')).toEqual([`Kitchenware ${tag}`]);
      await search.fill('no such category');
      await see(table.getByText('No categories found'));
      await search.fill('');

      await table.getByRole('button', { name: `Delete Bathroom ${tag}` }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete category?' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await see(statusMessage(page, 'Category deleted.'));
      await gone(rowWith(table, `Bathroom ${tag}`));

      // A category still used by a product stays, and the server's reason is shown.
      story.expectHttpError(409, '/api/category/');
      await table.getByRole('button', { name: `Delete Garden ${tag}` }).click();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await see(alertMessage(page, 'This category is used by 1 product; move or delete them first.'));
      await gone(confirm);
      await page.reload();
      await see(rowWith(table, `Garden ${tag}`));
    },
  );

  storyTest('admin adds, edits and deletes a supplier through the modal', async ({ story }) => {
    const { page, baseUrl } = story;
    const { tag, account } = await store(baseUrl);
    const name = `Fresh Farms ${tag}`;

    await story.signIn(account);
    await menu(story, 'Suppliers').click();
    await expectPath(page, '/admin-dashboard/supplier');
    await see(page.getByRole('heading', { name: 'Supplier Management', level: 1 }));
    const table = page.getByRole('table', { name: 'Suppliers' });

    // Cancel closes the modal without adding anything.
    await page.getByRole('button', { name: 'Add Supplier' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add New Supplier' });
    await dialog.getByLabel('Name').fill('Not kept');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await gone(dialog);

    await page.getByRole('button', { name: 'Add Supplier' }).click();
    await see(dialog);
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Email').fill(`orders-${tag}@farms.test`);
    await dialog.getByLabel('Phone').fill('+44 20 7946 0000');
    await dialog.getByLabel('Address').fill('3 Orchard Way');
    await dialog.getByRole('button', { name: 'Add Supplier' }).click();
    await gone(dialog);
    await see(statusMessage(page, 'Supplier added.'));
    const row = rowWith(table, name);
    await see(row);
    expect(await row.getByRole('cell').allInnerTexts()).toEqual(
      expect.arrayContaining([name, `orders-${tag}@farms.test`, '+44 20 7946 0000', '3 Orchard Way']),
    );
    expect(await columnTexts(table, 'Name')).not.toContain('Not kept');

    await table.getByRole('button', { name: `Edit ${name}` }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Supplier' });
    await see(dialog);
    expect(await dialog.getByLabel('Phone').inputValue()).toBe('+44 20 7946 0000');
    await dialog.getByLabel('Phone').fill('+44 20 7946 0999');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await gone(dialog);
    await see(statusMessage(page, 'Supplier updated.'));
    await see(row.getByRole('cell', { name: '+44 20 7946 0999' }));

    const search = page.getByPlaceholder('Search suppliers...');
    await search.fill(`FRESH FARMS ${tag}`);
    await eventually(() => columnTexts(table, 'Name')).toEqual([name]);
    await search.fill('');

    await table.getByRole('button', { name: `Delete ${name}` }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete supplier?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await see(statusMessage(page, 'Supplier deleted.'));
    await gone(row);
  });

  storyTest(
    'admin adds a product, edits it, finds it by name, reads the stock colours and deletes it',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const { tag, account, session, category, supplier } = await store(baseUrl);
      const base = { category: category._id, supplier: supplier._id };
      await session.addProduct({ ...base, name: `Empty Box ${tag}`, price: 3, stock: 0 });
      await session.addProduct({ ...base, name: `Few Clips ${tag}`, price: 0.5, stock: 5 });
      await session.addProduct({ ...base, name: `Many Pens ${tag}`, price: 1.2, stock: 6 });
      const lamp = `Desk Lamp ${tag}`;

      await story.signIn(account);
      await menu(story, 'Products').click();
      await expectPath(page, '/admin-dashboard/products');
      await see(page.getByRole('heading', { name: 'Products', level: 1 }));
      const table = page.getByRole('table', { name: 'Products' });
      expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(
        ['Name', 'Category', 'Supplier', 'Price', 'Stock', 'Action'].map((text) =>
          expect.stringMatching(new RegExp(`^${text}$`, 'i')),
        ),
      );

      // Stock badges: red at 0, yellow at or below the reorder point the server answers (this test
      // server's LOW_STOCK_THRESHOLD, 5), green above.
      const badge = (product: string, stock: number) =>
        rowWith(table, product).getByText(String(stock), { exact: true });
      await see(badge(`Empty Box ${tag}`, 0));
      expect(await backgroundColour(badge(`Empty Box ${tag}`, 0))).toBe('red');
      expect(await backgroundColour(badge(`Few Clips ${tag}`, 5))).toBe('yellow');
      expect(await backgroundColour(badge(`Many Pens ${tag}`, 6))).toBe('green');
      expect(await rowWith(table, `Few Clips ${tag}`).getByRole('cell').allInnerTexts()).toContain('$0.50');

      // The form checks its fields before anything is sent.
      await page.getByRole('button', { name: 'Add Product' }).click();
      const addDialog = page.getByRole('dialog', { name: 'Add New Product' });
      await see(addDialog);
      await addDialog.getByRole('button', { name: 'Add Product' }).click();
      await see(addDialog.getByText('Choose a category.'));
      await see(addDialog.getByText('Choose a supplier.'));

      await addDialog.getByLabel('Name').fill(lamp);
      await addDialog.getByLabel('Description').fill('Adjustable arm, warm light');
      await addDialog.getByLabel('Price').fill('24.5');
      await addDialog.getByLabel('Stock').fill('12');
      await addDialog.getByLabel('Category').selectOption({ label: category.name });
      await addDialog.getByLabel('Supplier').selectOption({ label: supplier.name });
      await addDialog.getByRole('button', { name: 'Add Product' }).click();
      await gone(addDialog);
      await see(statusMessage(page, 'Product added.'));
      const row = rowWith(table, lamp);
      await see(row);
      expect(await row.getByRole('cell').allInnerTexts()).toEqual(
        expect.arrayContaining([lamp, category.name, supplier.name, '$24.50', '12']),
      );
      expect(await backgroundColour(badge(lamp, 12))).toBe('green');

      await table.getByRole('button', { name: `Edit ${lamp}` }).click();
      const editDialog = page.getByRole('dialog', { name: 'Edit Product' });
      await see(editDialog);
      expect(await editDialog.getByLabel('Name').inputValue()).toBe(lamp);
      expect(await editDialog.getByLabel('Description').inputValue()).toBe('Adjustable arm, warm light');
      expect(Number(await editDialog.getByLabel('Price').inputValue())).toBe(24.5);
      expect(await editDialog.getByLabel('Stock').inputValue()).toBe('12');
      await editDialog.getByLabel('Price').fill('19.99');
      await editDialog.getByLabel('Stock').fill('4');
      await editDialog.getByRole('button', { name: 'Update Product' }).click();
      await gone(editDialog);
      await see(statusMessage(page, 'Product updated.'));
      await see(row.getByRole('cell', { name: '$19.99' }));
      expect(await backgroundColour(badge(lamp, 4))).toBe('yellow');

      const search = page.getByPlaceholder('Search products by name...');
      await search.fill(`LAMP ${tag}`);
      await eventually(() => columnTexts(table, 'Name')).toEqual([lamp]);
      await search.fill('nothing like this');
      await see(table.getByText('No products found.'));
      await search.fill('');
      await eventually(() => bodyRows(table).count()).toBeGreaterThanOrEqual(4);

      await table.getByRole('button', { name: `Delete ${lamp}` }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete product?' });
      await see(confirm.getByText(lamp));
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await see(statusMessage(page, 'Product deleted.'));
      await gone(row);
    },
  );

  storyTest(
    'admin searches the products, sorts them by price and turns the page; reload, Back and a shared link keep each view',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const { tag, account, session, category, supplier } = await store(baseUrl);
      // 55 crates, five more than a page of 50, priced $1 to $55; removed again at the end, so
      // the other stories' first page of products is theirs.
      const crate = (n: number) => `Crate ${tag} ${String(n).padStart(2, '0')}`;
      const crates: string[] = [];
      onTestFinished(async () => {
        for (const id of crates) await session.deleteProduct(id);
      });
      for (let n = 1; n <= 55; n++) {
        const added = await session.addProduct({
          name: crate(n),
          price: n,
          stock: 10,
          category: category._id,
          supplier: supplier._id,
        });
        crates.push(added._id);
      }

      await story.signIn(account);
      await menu(story, 'Products').click();
      await expectPath(page, '/admin-dashboard/products');
      const table = page.getByRole('table', { name: 'Products' });
      const search = page.getByPlaceholder('Search products by name...');
      await search.fill(`crate ${tag}`);
      await eventually(() => bodyRows(table).count()).toBe(50);
      await see(page.getByText('Showing 1–50 of 55'));

      const price = table.getByRole('columnheader', { name: 'Price' });
      await price.getByRole('button').click();
      await eventually(() => columnTexts(table, 'Name').then((names) => names[0])).toBe(crate(1));
      await price.getByRole('button').click();
      await eventually(() => columnTexts(table, 'Name').then((names) => names[0])).toBe(crate(55));
      expect(await price.getAttribute('aria-sort')).toBe('descending');
      const firstPage = await columnTexts(table, 'Name');

      await page.getByRole('button', { name: 'Next' }).click();
      const secondPage = [crate(5), crate(4), crate(3), crate(2), crate(1)];
      await eventually(() => columnTexts(table, 'Name')).toEqual(secondPage);
      const shared = new URL(page.url());
      expect(Object.fromEntries(shared.searchParams)).toEqual({
        q: `crate ${tag}`,
        sort: '-price',
        page: '2',
      });

      // A reload shows the same rows, search, order and page.
      await page.reload();
      await eventually(() => columnTexts(table, 'Name')).toEqual(secondPage);
      expect(await search.inputValue()).toBe(`crate ${tag}`);
      expect(await price.getAttribute('aria-sort')).toBe('descending');
      await see(page.getByText('Page 2 of 2'));

      // Back undoes the page step: the first page of the same search in the same order.
      await page.goBack();
      await eventually(() => columnTexts(table, 'Name')).toEqual(firstPage);
      expect(new URL(page.url()).searchParams.get('page')).toBeNull();
      expect(await price.getAttribute('aria-sort')).toBe('descending');

      // Another admin opening the link sees the same view.
      const other = await story.otherPerson();
      await other.signIn(account);
      await other.page.goto(`${shared.pathname}${shared.search}`);
      const theirs = other.page.getByRole('table', { name: 'Products' });
      await eventually(() => columnTexts(theirs, 'Name')).toEqual(secondPage);
      expect(await other.page.getByPlaceholder('Search products by name...').inputValue()).toBe(
        `crate ${tag}`,
      );
    },
  );

  storyTest('admin adds a Sales Rep. and an Employee, and a taken email is refused', async ({ story }) => {
    const { page, baseUrl } = story;
    const { account } = await newAdmin(baseUrl);
    const tag = unique();
    const rep = { name: `Sam Seller ${tag}`, email: `sam.${tag}@shop.test`, password: 'sam-secret-1' };
    const employee = { name: `Eve Worker ${tag}`, email: `eve.${tag}@shop.test`, password: 'eve-secret-1' };

    await story.signIn(account);
    await menu(story, 'Users').click();
    await expectPath(page, '/admin-dashboard/users');
    await see(page.getByRole('heading', { name: 'Users Management', level: 1 }));
    const form = page.getByRole('region', { name: 'Add New User' });
    const table = page.getByRole('table', { name: 'Users' });
    const roleChoices = await form
      .getByLabel('Role')
      .locator('option')
      .evaluateAll((options) =>
        options.map((option) => [(option as HTMLOptionElement).value, option.textContent]),
      );
    expect(roleChoices).toEqual([
      ['', 'Select Role'],
      ['salesRep', 'Sales Rep.'],
      ['medicalRep', 'Medical Rep.'],
      ['user', 'Employee'],
    ]);

    const add = async (person: typeof rep, role: string) => {
      await form.getByLabel('Name').fill(person.name);
      await form.getByLabel('Email').fill(person.email);
      await form.getByLabel('Password').fill(person.password);
      await form.getByLabel('Address').fill('9 Mill Road');
      await form.getByLabel('Role').selectOption(role);
      await form.getByRole('button', { name: 'Add User' }).click();
    };
    await add(rep, 'salesRep');
    await see(statusMessage(page, `User ${rep.name} added.`));
    await see(rowWith(table, rep.name).getByRole('cell', { name: 'Sales Rep.' }));
    await add(employee, 'user');
    await see(statusMessage(page, `User ${employee.name} added.`));
    await see(rowWith(table, employee.name).getByRole('cell', { name: 'Employee' }));

    // The same email again, even in capitals, is refused with the server's sentence.
    story.expectHttpError(409, '/api/users/add');
    await add({ ...rep, name: `Sam Again ${tag}`, email: rep.email.toUpperCase() }, 'medicalRep');
    await see(alertMessage(form, 'That email is already in use.'));
    expect(await columnTexts(table, 'Name')).not.toContain(`Sam Again ${tag}`);

    // An admin manages staff only: no admin or super admin is listed.
    const roles = await columnTexts(table, 'Role');
    expect(roles.every((role) => ['Sales Rep.', 'Medical Rep.', 'Employee'].includes(role))).toBe(true);

    // The new accounts work.
    for (const person of [rep, employee]) {
      await ApiSession.signIn(baseUrl, person.email, person.password);
    }
  });

  storyTest("admin sees every order with the ordering user's name and address", async ({ story }) => {
    const { page, baseUrl } = story;
    const { tag, account, session, category, supplier } = await store(baseUrl);
    const juice = await session.addProduct({
      name: `Orange Juice ${tag}`,
      price: 2.4,
      stock: 50,
      category: category._id,
      supplier: supplier._id,
    });
    const rita = await session.addUser('salesRep', `Rita Rep ${tag}`, '7 Harbour Lane');
    const eli = await session.addUser('user', `Eli Employee ${tag}`, '21 Station Road');
    const ritaOrder = await (await ApiSession.signIn(baseUrl, rita.email, rita.password)).order(juice._id, 3);
    const eliOrder = await (await ApiSession.signIn(baseUrl, eli.email, eli.password)).order(juice._id, 1);
    // An order from the catalogue is a one-line sale: its receipt number shows as on the receipt.
    const receipt = (order: typeof ritaOrder) => saleNumberLabel(order.sale?.number ?? Number.NaN);

    await story.signIn(account);
    await menu(story, 'Orders').click();
    await expectPath(page, '/admin-dashboard/orders');
    await see(page.getByRole('heading', { name: 'Orders', level: 1 }));
    const table = page.getByRole('table', { name: 'All orders' });
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(
      [
        'S NO',
        'Name',
        'Address',
        'Product Name',
        'Category',
        'Quantity',
        'Total Price',
        'Order Date',
        'Sale',
        'Actions',
      ].map((text) => expect.stringMatching(new RegExp(`^${text}$`, 'i'))),
    );
    const today = await page.evaluate(() => new Date().toLocaleDateString('en-US', { dateStyle: 'medium' }));
    const ritaRow = rowWith(table, rita.name);
    await see(ritaRow);
    const cells = (await ritaRow.getByRole('cell').allInnerTexts()).slice(1);
    expect(cells).toEqual([
      rita.name,
      '7 Harbour Lane',
      juice.name,
      category.name,
      '3',
      '$7.20',
      today,
      receipt(ritaOrder),
      'Return',
    ]);
    expect((await rowWith(table, eli.name).getByRole('cell').allInnerTexts()).slice(1)).toEqual([
      eli.name,
      '21 Station Road',
      juice.name,
      category.name,
      '1',
      '$2.40',
      today,
      receipt(eliOrder),
      'Return',
    ]);
    // Newest first.
    const names = await columnTexts(table, 'Name');
    expect(names.indexOf(eli.name)).toBeLessThan(names.indexOf(rita.name));
  });

  storyTest(
    'admin edits the profile, changes the password and signs in with the new one',
    async ({ story }) => {
      const { page } = story;
      const { account } = await newAdmin(story.baseUrl, `Paula Admin ${unique()}`);
      const newPassword = 'brand-new-secret-2';

      await story.signIn(account);
      await menu(story, 'Profile').click();
      await expectPath(page, '/admin-dashboard/profile');
      await see(page.getByRole('heading', { name: 'Profile', level: 1 }));
      const name = page.getByLabel('Name');
      const address = page.getByLabel('Address');
      await eventually(() => name.inputValue()).toBe(account.name);
      expect(await page.getByLabel('Email').inputValue()).toBe(account.email);
      expect(await name.getAttribute('readonly')).not.toBeNull();
      expect(await page.getByPlaceholder('Enter new password (optional)').count()).toBe(0);

      // Cancel throws away what was typed.
      await page.getByRole('button', { name: 'Edit Profile' }).click();
      await see(page.getByRole('button', { name: 'Save Changes' }));
      await name.fill('Typed by mistake');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await eventually(() => name.inputValue()).toBe(account.name);
      expect(await name.getAttribute('readonly')).not.toBeNull();

      await page.getByRole('button', { name: 'Edit Profile' }).click();
      await see(page.getByRole('button', { name: 'Save Changes' }));
      expect(await name.getAttribute('readonly')).toBeNull();
      await name.fill('Paula Prentice');
      await address.fill('2 New Street');
      await page.getByPlaceholder('Enter new password (optional)').fill(newPassword);
      // A new password needs the current one: asked for before anything is sent, then checked.
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await see(page.getByText('Enter your current password to change your password or email.'));
      const currentPassword = page.getByLabel('Current password');
      story.expectHttpError(403, '/api/users/');
      await currentPassword.fill('not-my-password');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await see(alertMessage(page, 'Your current password is wrong.'));
      expect(await name.getAttribute('readonly')).toBeNull();
      await currentPassword.fill(account.password);
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await see(statusMessage(page, 'Profile and password updated.'));
      await eventually(() => name.getAttribute('readonly')).not.toBeNull();
      expect(await address.inputValue()).toBe('2 New Street');
      await see(page.getByRole('complementary').getByText('Paula Prentice'));

      // The session carries on with the new token: a reload keeps the user signed in.
      await page.reload();
      await eventually(() => name.inputValue()).toBe('Paula Prentice');

      await menu(story, 'Logout').click();
      await expectPath(page, '/login');
      story.expectHttpError(401, '/api/auth/login');
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await see(alertMessage(page, 'Invalid email or password'));
      await story.signIn({ ...account, password: newPassword });
      await menu(story, 'Profile').click();
      await eventually(() => name.inputValue()).toBe('Paula Prentice');
      expect(await address.inputValue()).toBe('2 New Street');
    },
  );

  storyTest(
    'admin signs out everywhere from the profile: every session of the account ends at once',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const { account, session: phone } = await newAdmin(baseUrl, `Olga Admin ${unique()}`);
      const laptop = await story.otherPerson();
      await laptop.signIn(account);
      await story.signIn(account);
      await menu(story, 'Profile').click();
      await expectPath(page, '/admin-dashboard/profile');

      // It asks first; Cancel ends nothing.
      const signOutEverywhere = page.getByRole('button', { name: 'Sign out everywhere' });
      await signOutEverywhere.click();
      const dialog = page.getByRole('alertdialog', { name: 'Sign out everywhere?' });
      await see(dialog);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await gone(dialog);
      await page.reload();
      await see(page.getByRole('heading', { name: 'Profile', level: 1 }));

      await signOutEverywhere.click();
      await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
      await expectPath(page, '/login');
      await see(statusMessage(page, 'Signed out on every device.'));
      expect(await page.evaluate(() => localStorage.getItem('ims_token'))).toBeNull();

      // The account's other sessions end too: a client's token is refused, the other browser is
      // sent to log in at its next call.
      const refused = await fetch(`${baseUrl}/api/users/${account._id}`, {
        headers: { Authorization: `Bearer ${phone.token}` },
      });
      expect(refused.status).toBe(401);
      story.expectHttpError(401, '/api/');
      await laptop.page.reload();
      await expectPath(laptop.page, '/login');

      // Signing in again works.
      await story.signIn(account);
    },
  );

  storyTest(
    'admin gives a product a SKU and a barcode, finds it by the barcode, and a taken SKU is refused beside its field',
    async ({ story }) => {
      const { page, baseUrl } = story;
      const { tag, account, category, supplier } = await store(baseUrl);
      const kettle = `Kettle ${tag}`;
      const sku = `KET-${tag}`.toUpperCase();
      const barcode = `977${tag}`;

      await story.signIn(account);
      await menu(story, 'Products').click();
      const table = page.getByRole('table', { name: 'Products' });
      const add = async (name: string, code: { sku: string; barcode?: string }) => {
        await page.getByRole('button', { name: 'Add Product' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add New Product' });
        await dialog.getByLabel('Name').fill(name);
        await dialog.getByLabel('Price').fill('18');
        await dialog.getByLabel('Stock').fill('6');
        await dialog.getByLabel('Category').selectOption({ label: category.name });
        await dialog.getByLabel('Supplier').selectOption({ label: supplier.name });
        await dialog.getByLabel('SKU').fill(code.sku);
        if (code.barcode) await dialog.getByLabel('Barcode').fill(code.barcode);
        await dialog.getByRole('button', { name: 'Add Product' }).click();
        return dialog;
      };
      await gone(await add(kettle, { sku, barcode }));
      await see(statusMessage(page, 'Product added.'));

      // The search finds it by its barcode, exactly; the codes show under its name.
      await page.getByPlaceholder('Search products by name...').fill(barcode);
      await eventually(() => bodyRows(table).count()).toBe(1);
      expect(await textOf(bodyRows(table).getByRole('cell').first())).toBe(
        `${kettle} SKU ${sku} Barcode ${barcode}`,
      );

      // Another product with the same SKU in other letters: the server refuses, the form says why.
      story.expectHttpError(409, '/api/products/add');
      const second = await add(`Second ${kettle}`, { sku: sku.toLowerCase() });
      await see(second.getByText('Another product already has this SKU.'));
      expect(await second.getByLabel('SKU').getAttribute('aria-invalid')).toBe('true');
    },
  );

  storyTest('an admin who opens the sales rep area is told it is not theirs', async ({ story }) => {
    const { page } = story;
    const { account } = await newAdmin(story.baseUrl);
    await story.signIn(account);
    await page.goto('/salesRep-dashboard');
    await expectPath(page, '/unauthorized');
    await see(page.getByRole('heading', { name: 'Unauthorized...' }));
    await page.goto('/employee-dashboard/orders');
    await expectPath(page, '/unauthorized');
    await page.getByRole('link', { name: 'Back to your dashboard' }).click();
    await expectPath(page, '/admin-dashboard');
  });

  storyTest('admin adds a product and a sales rep orders it', async ({ story }) => {
    const { page, baseUrl } = story;
    const { tag, account, session, category, supplier } = await store(baseUrl);
    const rep = await session.addUser('salesRep', `Rosa Rep ${tag}`, '8 Dockside');
    const kettle = `Kettle ${tag}`;

    await story.signIn(account);
    await menu(story, 'Products').click();
    await page.getByRole('button', { name: 'Add Product' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Product' });
    await dialog.getByLabel('Name').fill(kettle);
    await dialog.getByLabel('Price').fill('18.75');
    await dialog.getByLabel('Stock').fill('7');
    await dialog.getByLabel('Category').selectOption({ label: category.name });
    await dialog.getByLabel('Supplier').selectOption({ label: supplier.name });
    await dialog.getByRole('button', { name: 'Add Product' }).click();
    await gone(dialog);
    const products = page.getByRole('table', { name: 'Products' });
    await eventually(() => cellText(products, kettle, 'Stock')).toBe('7');

    // The rep, at another desk, finds it at once and orders three.
    const repDesk = await story.otherPerson();
    await repDesk.signIn(rep);
    const catalogue = repDesk.page.getByRole('table', { name: 'Products you can order' });
    await repDesk.page.getByPlaceholder('Search products...').fill(kettle);
    await eventually(() => cellText(catalogue, kettle, 'Price')).toBe('$18.75');
    await catalogue.getByRole('button', { name: `Order ${kettle}` }).click();
    const order = repDesk.page.getByRole('dialog', { name: 'Place Order' });
    await order.getByLabel('Quantity').fill('3');
    await eventually(() => textOf(order.getByText(/^Total:/))).toBe('Total: $56.25');
    await order.getByRole('button', { name: 'Place Order' }).click();
    await see(statusMessage(repDesk.page, 'order placed'));
    await eventually(() => cellText(catalogue, kettle, 'Stock')).toBe('4');

    // Back at the admin's desk: the stock has dropped and the order is listed with who placed it.
    await page.reload();
    await eventually(() => cellText(products, kettle, 'Stock')).toBe('4');
    expect(await backgroundColour(rowWith(products, kettle).getByText('4', { exact: true }))).toBe('yellow');
    await menu(story, 'Orders').click();
    const orders = page.getByRole('table', { name: 'All orders' });
    await eventually(() => cellText(orders, kettle, 'Name')).toBe(rep.name);
    expect(await cellText(orders, kettle, 'Address')).toBe('8 Dockside');
    expect(await cellText(orders, kettle, 'Quantity')).toBe('3');
    expect(await cellText(orders, kettle, 'Total Price')).toBe('$56.25');
  });
});
