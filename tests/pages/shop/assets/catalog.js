import { PRODUCTS } from "/assets/products.js";
const grid = document.getElementById("grid");
for (const p of PRODUCTS) {
  const card = document.createElement("div");
  card.className = "card";
  card.innerHTML = `<h3>${p.name}</h3><p>${p.price}</p><button class="btn">Buy ${p.name.toLowerCase()}</button>`;
  grid.appendChild(card);
}
