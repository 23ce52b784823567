const labels = document.documentElement.lang.startsWith("zh") ? ["安装", "配置", "部署"] : ["Install", "Configure", "Deploy"];
const list = document.querySelector("[role=tablist]");
labels.forEach((text, i) => {
  const tab = document.createElement("button");
  tab.setAttribute("role", "tab");
  tab.setAttribute("aria-selected", String(i === 0));
  tab.textContent = text;
  list.appendChild(tab);
});
fetch("https://api.example.org/version").then(r => r.text()).catch(() => {});
